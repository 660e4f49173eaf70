import FoundationEssentials
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeSandbox

/// The playground's `passes` and `cfg` views (SPEC §7), as JSON for the server: what `ir
/// --passes` and `cfg` print, with the parts the page shows apart.
enum ExplainViews {
  /// Thrown for a `function` the program does not define: the server answers 400.
  struct UnknownFunction: Error {
    var name: String
  }

  /// The `passes` view; `logFile` was opened before the sandbox sealed the process.
  static func passes(
    of program: CheckedProgram, options: CompileOptions, function: String?, logFile: PassLogFile
  ) throws -> String {
    let log = try Pipeline.passes(of: program, options: options, logFile: logFile)
    let functions = log.start.keys.sorted()
    var report = PassReport(log: log, function: nil, full: false)
    if let function {
      guard let name = PassReport.irName(of: function, in: log) else { throw UnknownFunction(name: function) }
      report.function = name
    }
    var budget = PassesViewOutput.irLimit
    var truncated = false
    var runs: [PassesViewOutput.Run] = []
    for run in log.runs where report.function == nil || run.function == report.function {
      var entry = PassesViewOutput.Run(
        pass: run.pass, function: run.function, changed: run.changed, before: run.before, after: run.after)
      budget -= run.before.utf8.count + run.after.utf8.count
      if budget < 0 {
        (entry.before, entry.after, truncated) = ("", "", true)
      }
      runs.append(entry)
    }
    let (text, textTruncated) = report.text.prefix(wholeLinesWithin: PassesViewOutput.irLimit)
    let output = PassesViewOutput(text: text, functions: functions, passes: runs, truncated: truncated || textTruncated)
    return String(decoding: try JSONEncoder().encode(output), as: UTF8.self)
  }

  /// The `cfg` view of the IR (or, with `target`, of the machine code).
  static func controlFlowGraphs(
    of program: CheckedProgram, options: CompileOptions, target: String?, function: String?
  ) throws -> String {
    var graphs =
      if let target {
        try Pipeline.machineControlFlowGraphs(of: program, target: target, options: options)
      } else {
        try Pipeline.controlFlowGraphs(of: program, options: options)
      }
    let functions = graphs.map(\.function)
    if let function {
      let name = IRText.functionName(function, among: functions)
      graphs = graphs.filter { $0.function == name }
      guard !graphs.isEmpty else { throw UnknownFunction(name: function) }
    }
    let (text, truncated) = graphs.map { $0.dot() }.joined(separator: "\n").prefix(
      wholeLinesWithin: PassesViewOutput.irLimit)
    let output = CFGViewOutput(
      text: text, drawing: truncated ? "" : ControlFlowGraph.dot(combining: graphs), functions: functions,
      truncated: truncated)
    return String(decoding: try JSONEncoder().encode(output), as: UTF8.self)
  }
}
