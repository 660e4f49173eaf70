import KaleidoscopeBackend
import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's `:` commands: inspect what is defined, see every stage of the compiler for a
/// snippet, load files, tune the session.
struct MetaCommands {
  /// What the REPL should do after a command.
  enum Effect {
    case proceed
    case quit
  }

  static let help = """
    :help              this list
    :quit              leave (Ctrl-D on an empty line too)
    :defs              the globals, functions and operators defined so far
    :type NAME         a function's signature or a global's kind, and where it was declared (also :info)
    :ir NAME           the optimised LLVM IR of NAME's definition
    :asm NAME          the machine code of NAME's definition
    :passes NAME       the optimiser pass by pass on NAME's definition: what each pass changed
    :cfg NAME          NAME's control-flow graph, drawn as SVG in a file whose path is printed
    :ast EXPR          the syntax tree of EXPR, drawn
    :tokens EXPR       the tokens of EXPR
    :step EXPR         run EXPR a step at a time (Enter: next step, c: continue, q: stop)
    :time on|off       print how long each input takes to compile and run
    :load FILE         evaluate a file, as if typed
    :reset             forget every definition
    :opt 0|1|2|3       the optimisation level for the inputs to come

    """

  static let names = [
    ":help", ":quit", ":defs", ":type", ":info", ":ir", ":asm", ":passes", ":cfg", ":ast", ":tokens", ":step", ":time", ":load",
    ":reset", ":opt",
  ]

  /// The session every input goes to; `:reset` replaces it.
  var session: InteractiveSession
  let reporter: DiagnosticReporter
  var timing = false

  mutating func run(_ line: String) throws -> Effect {
    let trimmed = line.trimmed
    let command = String(trimmed.prefix { !$0.isWhitespace })
    let argument = trimmed.dropFirst(command.count).trimmed
    switch command {
    case ":help", ":h", ":?": Terminal.writeOut(Self.help)
    case ":quit", ":q", ":exit": return .quit
    case ":defs": Terminal.writeOut(definitions())
    case ":type", ":info": try describe(argument)
    case ":ir": try show(argument) { try session.ir(of: $0) }
    case ":asm": try show(argument) { try session.assembly(of: $0) }
    case ":passes": try passes(argument)
    case ":cfg": try controlFlowGraph(argument)
    case ":ast": try syntaxTree(argument)
    case ":tokens":
      let file = SourceFile(name: "<repl>", text: argument)
      Terminal.writeOut(TokenListing.render(Lexer.tokenize(file), in: file))
    case ":time":
      guard argument == "on" || argument == "off" else { return usage("usage: :time on|off") }
      timing = argument == "on"
    case ":step": try step(argument)
    case ":load": try load(argument)
    case ":reset":
      let (optimization, options, tiered) = (session.optimization, session.options, session.isTiered)
      session = try ReplCommand.makeSession(optimization: optimization, options: options, tiered: tiered)
    case ":opt":
      guard let level = Int(argument).flatMap(OptimizationLevel.init(rawValue:)) else {
        return usage("usage: :opt 0|1|2|3")
      }
      session.optimization = level
    default:
      return usage("unknown command '\(command)'; :help lists the commands")
    }
    return .proceed
  }

  private func usage(_ message: String) -> Effect {
    Terminal.writeError("error: \(message)\n")
    return .proceed
  }

  private func definitions() -> String {
    let defined = session.symbols.filter { $0.origin == .defined }
    let externs = session.symbols.filter { $0.origin == .external && $0.file.name != "<prelude>" }
    let globals = session.globals
    if globals.isEmpty && defined.isEmpty && externs.isEmpty {
      return "nothing defined yet (the math library is declared: :type sin)\n"
    }
    return
      (globals.map { "\(declaration(of: $0, preview: true))\n" }
      + defined.map { "def \(session.signature(of: $0))\n" } + externs.map { "extern \(session.signature(of: $0))\n" })
      .joined()
  }

  /// `var x = 3`, `var a[10]`, or with `preview` the array's first elements too:
  /// `var a[10] = [0, 1, 4, ...]`.
  private func declaration(of global: GlobalSymbol, preview: Bool) -> String {
    switch session.value(of: global) {
    case .number(let value)?:
      return "var \(global.spelling) = \(RuntimeValues.format(value))"
    case .array(let count, let first)?:
      let elements = first.map(RuntimeValues.format).joined(separator: ", ") + (first.count < count ? ", ..." : "")
      return "var \(global.spelling)[\(count)]" + (preview ? " = [\(elements)]" : "")
    case nil:
      return "var \(global.spelling)\(global.kind == .array ? "[]" : "")"
    }
  }

  /// Finds a function by name, or an operator by its character (`|` or `binary|`).
  private func symbol(named name: String) -> FunctionSymbol? {
    session.symbols.last { [name, "binary\(name)", "unary\(name)"].contains($0.spelling) }
  }

  private func describe(_ name: String) throws {
    guard !name.isEmpty else { return Terminal.writeError("error: usage: :type NAME\n") }
    if let global = session.globals.first(where: { $0.spelling == name }) {
      let location = global.file.location(of: global.range.start)
      return Terminal.writeOut(
        "\(declaration(of: global, preview: false))    # declared at \(global.file.name):\(location.line):\(location.column)\n")
    }
    guard let symbol = symbol(named: name) else {
      return Terminal.writeError("error: '\(name)' is not defined\n")
    }
    let keyword = symbol.origin == .defined ? "def" : "extern"
    let place: String
    if symbol.file.name == "<prelude>" {
      place = "declared by the prelude (the C math library)"
    } else {
      let location = symbol.file.location(of: symbol.prototype.range.start)
      place = "\(symbol.origin == .defined ? "defined" : "declared") at \(symbol.file.name):\(location.line):\(location.column)"
    }
    Terminal.writeOut("\(keyword) \(session.signature(of: symbol))    # \(place)\n")
  }

  private func show(_ name: String, _ text: (String) throws -> String?) throws {
    guard let symbol = symbol(named: name), symbol.origin == .defined else {
      return Terminal.writeError("error: '\(name)' is not a function defined in this session\n")
    }
    let output = try reportingBackEndErrors { try LargeStack.run { () throws -> String? in try text(symbol.spelling) } }
    Terminal.writeOut(output ?? "")
  }

  /// `ir --passes` on the input that defined `name`, in a child process (LLVM's
  /// `-print-changed` would stay on in this one), at the session's level.
  private func passes(_ name: String) throws {
    guard let symbol = symbol(named: name), symbol.origin == .defined,
      let source = try reportingBackEndErrors({ try session.unoptimizedIR(of: symbol.spelling) })
    else { return Terminal.writeError("error: '\(name)' is not a function defined in this session\n") }
    guard session.optimization != .none else { return Terminal.writeError("error: :passes needs :opt 1, 2 or 3\n") }
    guard let path = Self.writeTemporaryFile(named: "passes", suffix: ".ll", contents: source.ir) else { return }
    defer { unlink(path) }
    let arguments = [
      Subprocess.currentExecutable, "passes-of-ir", "-O\(session.optimization.rawValue)", "--function", source.symbol, path,
    ]
    _ = try reportingBackEndErrors { try Subprocess.runShowingOutput(arguments) }
  }

  /// Runs `expression` in the interpreter a step at a time, on the terminal.
  private func step(_ expression: String) throws {
    guard !expression.isEmpty else { return Terminal.writeError("error: usage: :step EXPR\n") }
    let stepper = TerminalStepper { readLine(strippingNewline: true) }
    switch try session.step(through: expression, observer: stepper) {
    case .failed(let diagnostics):
      _ = reporter.report(diagnostics, summary: false)
    case .ran(let error?) where !(error == .interrupted && stepper.stoppedByUser):
      if error != .reported { Terminal.writeError("\(error)\n") }
    case .ran:
      if stepper.stoppedByUser { Terminal.writeOut("(stopped)\n") }
    }
  }

  /// Draws `name`'s control-flow graph into a new SVG file and prints its path.
  private func controlFlowGraph(_ name: String) throws {
    guard let symbol = symbol(named: name), symbol.origin == .defined,
      let graph = try reportingBackEndErrors({ try session.controlFlowGraph(of: symbol.spelling) })
    else { return Terminal.writeError("error: '\(name)' is not a function defined in this session\n") }
    let svg = try reportingBackEndErrors { try Graphviz.svg(of: graph.dot()) }
    guard let path = Self.writeTemporaryFile(named: "cfg", suffix: ".svg", contents: svg) else { return }
    Terminal.writeOut("\(path)\n")
  }

  /// A new file `kaleidoscope-NAME-XXXXXX.SUFFIX` in the temporary directory holding
  /// `contents`; its path, or nil after reporting why not.
  private static func writeTemporaryFile(named name: String, suffix: String, contents: String) -> String? {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(directory)/kaleidoscope-\(name)-XXXXXX\(suffix)".utf8CString)
    let descriptor = mkstemps(&template, Int32(suffix.utf8.count))
    guard descriptor >= 0 else {
      Terminal.writeError("error: cannot create a file in \(directory): \(String(cString: strerror(errno)))\n")
      return nil
    }
    let bytes = Array(contents.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      written += count
    }
    close(descriptor)
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private func syntaxTree(_ text: String) throws {
    let parsed = session.parse(SourceFile(name: "<repl>", text: text))
    if parsed.diagnostics.hasErrors {
      _ = reporter.report(parsed.diagnostics, summary: false)
    } else {
      Terminal.writeOut(ASTTreeDrawing.render(parsed.tree))
    }
  }

  private func load(_ path: String) throws {
    guard !path.isEmpty else { return Terminal.writeError("error: usage: :load FILE\n") }
    let file: SourceFile
    do {
      file = try SourceReader.load(path: path)
    } catch {
      return Terminal.writeError("error: \(error)\n")
    }
    try ReplCommand.evaluate(file, in: session, isFinal: true, reporter: reporter, timing: false)
  }
}

extension StringProtocol {
  /// Without leading and trailing blanks (the REPL avoids Foundation, which costs start-up).
  var trimmed: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
