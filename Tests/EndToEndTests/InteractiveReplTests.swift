import Foundation
import Testing

/// The REPL through a pseudo-terminal, as a person uses it: each scenario is a function of
/// `Interactive/repl_session.py` (pexpect), run against the built binary.
@Suite("REPL on a terminal")
struct InteractiveReplTests {
  static let script = TestData.path("Interactive", "repl_session.py")

  @Test(
    arguments: [
      "define_and_call", "redefinition_reaches_earlier_callers", "error_then_carry_on", "colour_on_a_terminal",
      "multi_line_definition", "completion", "line_editing", "history_across_sessions", "ctrl_d_exits_cleanly",
      "meta_commands", "ctrl_c_cancels_the_line", "ctrl_c_interrupts_a_running_loop",
      "ctrl_c_right_after_enter_interrupts_a_loop", "ctrl_c_interrupts_a_recursion",
      "ctrl_c_interrupts_a_read", "step_on_a_terminal",
    ])
  func scenario(name: String) throws {
    let output = try Tool.runExecutable("/usr/bin/python3", arguments: [Self.script, Tool.executable.path, name])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
  }

  @Test func anUnwritableHistoryIsAWarningNotAFailure() throws {
    // A file where the state directory should be: the history cannot be written.
    let blocker = NSTemporaryDirectory() + "ks-history-blocker-\(getpid())"
    try Data("not a directory".utf8).write(to: URL(fileURLWithPath: blocker))
    defer { try? FileManager.default.removeItem(atPath: blocker) }
    let output = try Tool.runExecutable(
      "/usr/bin/python3",
      arguments: [Self.script, Tool.executable.path, "unwritable_history", blocker])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
  }
}
