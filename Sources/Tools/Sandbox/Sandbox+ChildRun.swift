import KaleidoscopeFrontend

extension Sandbox {
  /// What the sandboxed side of a run is told on its command line, and the one shape of
  /// that command line the tool reads without swift-argument-parser.
  ///
  /// A playground run starts a process; parsing its command line by reflection cost that
  /// process about as much as compiling and running a small program (docs/DESIGN.md). This
  /// command line is not typed by people: the server writes it (`arguments`), always in this
  /// order, and `init?(arguments:)` reads back exactly that and nothing else. Any other
  /// command line, `run --sandboxed` typed by hand included, goes through the parser, to
  /// the same `SandboxedRun.child`.
  public struct ChildRun: Equatable, Sendable {
    /// The name diagnostics give the source (the source comes on standard input).
    public var name: String
    /// `jit` or `interp`.
    public var tier = Tier.jit
    public var forSemantics = ForSemantics.current
    public var optimization = 2
    public var quiet = false
    public var probe = false
    public var traceSteps: Int?
    public var cpuSeconds = Limits().cpuSeconds
    public var memoryBytes = Limits().memoryBytes
    public var jsonDiagnostics = false

    public init(name: String) {
      self.name = name
    }

    /// The run `request` asks for, within `limits`.
    init(_ request: Request, limits: Limits) {
      name = request.name
      tier = request.tier
      forSemantics = request.forSemantics
      optimization = request.optimization
      quiet = request.quiet
      probe = request.probe
      traceSteps = request.traceSteps
      cpuSeconds = limits.cpuSeconds
      memoryBytes = limits.memoryBytes
      jsonDiagnostics = request.jsonDiagnostics
    }

    /// The command line, as `run` reads it (the first argument names the program).
    public var arguments: [String] {
      var arguments = ["kaleidoscope", "run", childOption, "--tier", tier.rawValue]
      arguments += ["--for-semantics", forSemantics.rawValue]
      if quiet { arguments.append("-q") }
      if probe { arguments.append("--sandbox-probe") }
      if let traceSteps { arguments += ["--sandbox-trace", "\(traceSteps)"] }
      let tail = CommandTail(
        cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, optimization: optimization, jsonDiagnostics: jsonDiagnostics,
        name: name)
      return arguments + tail.words
    }

    /// The run `arguments` spells, if they are exactly what `arguments` writes for one.
    public init?(arguments: [String]) {
      var words = ArgumentWords(arguments)
      guard words.take("kaleidoscope"), words.take("run"), words.take(Sandbox.childOption),
        words.take("--tier"), let tier = words.next().flatMap(Tier.init(rawValue:)),
        words.take("--for-semantics"), let semantics = words.next().flatMap(ForSemantics.init(rawValue:))
      else { return nil }
      name = ""
      self.tier = tier
      forSemantics = semantics
      quiet = words.take("-q")
      probe = words.take("--sandbox-probe")
      if words.take("--sandbox-trace") {
        guard let steps = words.number() else { return nil }
        traceSteps = steps
      }
      guard let tail = words.tail(), let level = tail.optimization else { return nil }
      (cpuSeconds, memoryBytes, optimization) = (tail.cpuSeconds, tail.memoryBytes, level)
      (jsonDiagnostics, name) = (tail.jsonDiagnostics, tail.name)
      guard self.arguments == arguments else { return nil }
    }
  }
}

extension Sandbox {
  /// What the sandboxed side of a view is told on its command line: `ChildRun`'s twin for
  /// the playground's panes (`sandboxed-view`), read back the same way.
  public struct ChildView: Equatable, Sendable {
    /// The name diagnostics give the source (the source comes on standard input).
    public var name: String
    public var view: View
    /// The target triple or short name of the `asm` view and of a machine-code `cfg`.
    public var target: String?
    /// For the `passes` and `cfg` views: only this function.
    public var function: String?
    /// For the `cfg` view: the machine code's graphs, not the IR's.
    public var graphsMachineCode = false
    /// For the `ir` view: a diff from the IR at -O0.
    public var diffFromUnoptimized = false
    /// nil: the view's own default (`sandboxed-view` typed without `-O`).
    public var optimization: Int?
    public var cpuSeconds = Limits().cpuSeconds
    public var memoryBytes = Limits().memoryBytes
    public var jsonDiagnostics = false

    public init(name: String, view: View) {
      self.name = name
      self.view = view
    }

    /// The view `request` asks for, within `limits`.
    init(_ request: Request, view: View, limits: Limits) {
      (name, self.view, target, function) = (request.name, view, request.target, request.function)
      (graphsMachineCode, diffFromUnoptimized) = (request.graphsMachineCode, request.diffFromUnoptimized)
      (optimization, cpuSeconds, memoryBytes) = (request.optimization, limits.cpuSeconds, limits.memoryBytes)
      jsonDiagnostics = request.jsonDiagnostics
    }

    /// The command line, as `sandboxed-view` reads it (the first argument names the program).
    public var arguments: [String] {
      var arguments = ["kaleidoscope", viewCommand, "--view", view.rawValue]
      arguments += (target.map { ["--target", $0] } ?? []) + (function.map { ["--function", $0] } ?? [])
      if graphsMachineCode { arguments.append("--asm") }
      if diffFromUnoptimized { arguments.append("--diff") }
      let tail = CommandTail(
        cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, optimization: optimization, jsonDiagnostics: jsonDiagnostics,
        name: name)
      return arguments + tail.words
    }

    /// The view `arguments` spells, if they are exactly what `arguments` writes for one.
    public init?(arguments: [String]) {
      var words = ArgumentWords(arguments)
      guard words.take("kaleidoscope"), words.take(Sandbox.viewCommand), words.take("--view"),
        let view = words.next().flatMap(View.init(rawValue:))
      else { return nil }
      (name, self.view) = ("", view)
      if words.take("--target") { target = words.next() }
      if words.take("--function") { function = words.next() }
      graphsMachineCode = words.take("--asm")
      diffFromUnoptimized = words.take("--diff")
      guard let tail = words.tail() else { return nil }
      (cpuSeconds, memoryBytes, optimization) = (tail.cpuSeconds, tail.memoryBytes, tail.optimization)
      (jsonDiagnostics, name) = (tail.jsonDiagnostics, tail.name)
      guard self.arguments == arguments else { return nil }
    }
  }
}

/// The words every sandboxed command line ends with: its limits, its optimisation level
/// (absent: the command's default), no colour, JSON diagnostics or not, and the name the
/// diagnostics give the source.
struct CommandTail {
  var cpuSeconds: Int
  var memoryBytes: Int
  var optimization: Int?
  var jsonDiagnostics: Bool
  var name: String

  var words: [String] {
    var words = ["--sandbox-cpu", "\(cpuSeconds)", "--sandbox-memory", "\(memoryBytes)"]
    words += (optimization.map { ["-O", "\($0)"] } ?? []) + ["--color", "never"]
    if jsonDiagnostics { words.append("--sandbox-json") }
    return words + ["--", name]
  }
}

/// A command line read word by word, front to back.
struct ArgumentWords {
  private let words: [String]
  private var position = 0

  init(_ words: [String]) {
    self.words = words
  }

  var atEnd: Bool { position == words.count }

  /// The next word, taken.
  mutating func next() -> String? {
    guard !atEnd else { return nil }
    position += 1
    return words[position - 1]
  }

  /// Takes the next word if it is `word`.
  mutating func take(_ word: String) -> Bool {
    guard !atEnd, words[position] == word else { return false }
    position += 1
    return true
  }

  /// The next word as a whole number, taken.
  mutating func number() -> Int? {
    next().flatMap { Int($0) }
  }

  /// The rest of the words as a tail with a level (the server always writes one, and the
  /// commands' defaults differ).
  mutating func tail() -> CommandTail? {
    guard take("--sandbox-cpu"), let cpu = number(), take("--sandbox-memory"), let memory = number(), take("-O"),
      let level = number(), (0...3).contains(level), take("--color"), take("never")
    else { return nil }
    let json = take("--sandbox-json")
    guard take("--"), let name = next(), atEnd else { return nil }
    return CommandTail(cpuSeconds: cpu, memoryBytes: memory, optimization: level, jsonDiagnostics: json, name: name)
  }
}
