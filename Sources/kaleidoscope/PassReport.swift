import KaleidoscopeBackend
import KaleidoscopeFormat

/// The text of `ir --passes` (SPEC §7): for every pass that changed a function, a header
/// `*** PASS on FUNCTION ***` and a unified diff of the function (or, `full`, its whole IR
/// after the pass); then a line counting the passes run and those that changed something.
struct PassReport {
  var log: PassLog
  /// Only this function's changes, when given.
  var function: String?
  var full: Bool

  /// The IR name of the function `name` spells, if the program has it.
  static func irName(of name: String, in log: PassLog) -> String? {
    IRText.functionName(name, among: Set(log.start.keys).union(log.changes.map(\.function)))
  }

  var text: String {
    var out = ""
    for change in log.changes where function == nil || change.function == function {
      out += "*** \(change.pass) on \(change.function) ***\n"
      if full {
        out += change.after.isEmpty ? "; deleted\n" : change.after
      } else {
        out += UnifiedDiff.make(
          old: Array(change.before.utf8), new: Array(change.after.utf8), oldName: "\(change.function) before",
          newName: "\(change.function) after \(change.pass)")
      }
    }
    let changed = log.passesChanged == 1 ? "1 changed" : "\(log.passesChanged) changed"
    return out + "; \(log.passesRun) passes run, \(changed) the IR\n"
  }
}
