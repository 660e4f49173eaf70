/// What one optimisation pass did to one function: its IR before and after; or a run of a
/// pass that changed nothing.
public struct PassChange: Sendable, Equatable {
  /// The pass's name as LLVM prints it (`InstCombinePass`).
  public var pass: String
  /// The function's IR name (`fib`, `binary:`); for a run that changed nothing, what the
  /// pass ran on (a function, `[module]`, or a call-graph cycle `(f, g)`).
  public var function: String
  /// Whether the pass changed the function.
  public var changed: Bool
  /// The function's IR before the pass; empty when the pass made it, or changed nothing.
  public var before: String
  /// The function's IR after the pass; empty when the pass deleted it, or changed nothing.
  public var after: String

  public init(pass: String, function: String, changed: Bool = true, before: String, after: String) {
    self.pass = pass
    self.function = function
    self.changed = changed
    self.before = before
    self.after = after
  }
}

/// The passes of an optimisation pipeline and what each changed (SPEC §7).
public struct PassLog: Sendable, Equatable {
  /// Every run of a pass in order: one entry per function it changed, or one saying it
  /// changed nothing.
  public var runs: [PassChange]
  /// The runs that changed a function.
  public var changes: [PassChange] { runs.filter(\.changed) }
  /// How many passes ran, over every function they ran on.
  public var passesRun: Int
  /// How many of those runs changed something.
  public var passesChanged: Int
  /// Each function's IR before the first pass, by name.
  public var start: [String: String]
}

extension PassLog {
  /// Reads what LLVM's `-print-changed` wrote: `*** IR Dump At Start ***` and the module,
  /// then per pass run either `*** IR Dump After PASS on UNIT omitted because no change ***`
  /// or `*** IR Dump After PASS on UNIT ***` and the IR it changed (a function, the functions
  /// of a call-graph cycle, or the module). A function is compared with its last text, so a
  /// module pass is charged only for the functions it changed, and one it deleted is a
  /// change to nothing.
  public init(printChangedOutput text: Substring) {
    runs = []
    passesRun = 0
    passesChanged = 0
    start = [:]
    var current: [String: String] = [:]
    for dump in Self.dumps(in: text) {
      switch dump.kind {
      case .start:
        current = IRText.functionsByName(in: dump.body)
        start = current
      case .unchanged(let pass, let unit):
        passesRun += 1
        runs.append(PassChange(pass: pass, function: unit, changed: false, before: "", after: ""))
      case .changed(let pass, let unit):
        passesRun += 1
        let after = IRText.functionsByName(in: dump.body)
        var changed = false
        for (name, text) in after.sorted(by: { $0.key < $1.key }) where current[name] != text {
          runs.append(PassChange(pass: pass, function: name, before: current[name] ?? "", after: text))
          current[name] = text
          changed = true
        }
        if unit == "[module]" {
          for name in current.keys.sorted() where after[name] == nil {
            runs.append(PassChange(pass: pass, function: name, before: current[name]!, after: ""))
            current[name] = nil
            changed = true
          }
        }
        if changed {
          passesChanged += 1
        } else {
          runs.append(PassChange(pass: pass, function: unit, changed: false, before: "", after: ""))
        }
      }
    }
  }

  /// A section of the log.
  private struct Dump {
    /// What the section is: the log's start, or a pass's report on a unit, changed or not.
    enum Kind {
      case start
      case unchanged(pass: String, unit: String)
      case changed(pass: String, unit: String)
    }
    var kind: Kind
    var body: Substring
  }

  /// The sections of the log, each a header line and the IR under it.
  private static func dumps(in text: Substring) -> [Dump] {
    var result: [Dump] = []
    var lines = IRText.lines(of: text)[...]
    while let line = lines.first {
      lines = lines.dropFirst()
      guard let kind = header(line) else { continue }
      let end = lines.firstIndex { $0.hasPrefix("*** ") } ?? lines.endIndex
      let body = lines[..<end]
      result.append(Dump(kind: kind, body: body.isEmpty ? "" : text[body.first!.startIndex..<body.last!.endIndex]))
      lines = lines[end...]
    }
    return result
  }

  /// What a `*** ... ***` line says; nil for any other line (the pass managers' own
  /// `*** IR Pass ... ignored ***`, say).
  private static func header(_ line: Substring) -> Dump.Kind? {
    guard line.hasPrefix("*** IR Dump "), line.hasSuffix(" ***") else { return nil }
    let inner = line.dropFirst("*** IR Dump ".count).dropLast(" ***".count)
    if inner == "At Start" { return .start }
    guard inner.hasPrefix("After "), let on = inner.firstRange(of: " on ") else { return nil }
    let pass = String(inner[inner.index(inner.startIndex, offsetBy: 6)..<on.lowerBound])
    let unit = inner[on.upperBound...]
    let omitted = " omitted because no change"
    if unit.hasSuffix(omitted) { return .unchanged(pass: pass, unit: String(unit.dropLast(omitted.count))) }
    return .changed(pass: pass, unit: String(unit))
  }

}
