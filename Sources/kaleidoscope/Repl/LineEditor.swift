@preconcurrency import CEditLine
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// Reads the REPL's input lines: with libedit on a terminal (arrow keys, Ctrl-A/E/K/W,
/// reverse search with Ctrl-R, tab completion, history kept across sessions), and plainly,
/// without prompts, otherwise.
final class LineEditor {
  /// Words that Tab completes; set by the REPL before each line (keywords, the functions
  /// defined so far, meta-commands).
  nonisolated(unsafe) static var completions: [String] = []
  nonisolated(unsafe) private static var matches: [String] = []

  let isInteractive: Bool
  private let historyPath: String?

  init(interactive: Bool) {
    isInteractive = interactive
    historyPath = interactive ? History.path() : nil
    guard interactive else { return }
    setlocale(LC_ALL, "")  // or libedit drops non-ASCII input
    rl_readline_name = UnsafePointer(strdup("kaleidoscope"))
    rl_attempted_completion_function = { text, _, _ in
      rl_completion_append_character = 0
      return rl_completion_matches(text) { text, state in
        if state == 0 {
          let prefix = String(cString: text!)
          LineEditor.matches = LineEditor.completions.filter { $0.hasPrefix(prefix) }.sorted().reversed()
        }
        guard let next = LineEditor.matches.popLast() else { return nil }
        return strdup(next)
      }
    }
    // Ctrl-C is ours: it cancels the line being typed (the read is interrupted) or stops
    // the running code (see ReplCommand.evaluate), never the REPL.
    rl_catch_signals = 0
    ks_catch_interrupts()
    stifle_history(1000)
    if let historyPath { History.load(historyPath) }
  }

  /// What reading a line gave.
  enum Input {
    case line(String)
    /// Ctrl-C: the line being typed is abandoned.
    case interrupted
    /// Ctrl-D on an empty line, or the end of the input.
    case end
  }

  /// The next line, without its newline.
  func read(prompt: String) -> Input {
    guard isInteractive else { return Swift.readLine(strippingNewline: true).map(Input.line) ?? .end }
    _ = ks_take_interrupt()
    guard let line = CEditLine.readline(prompt) else {
      return ks_take_interrupt() != 0 ? .interrupted : .end
    }
    defer { free(line) }
    if ks_take_interrupt() != 0 { return .interrupted }
    return .line(String(cString: line))
  }

  /// Records a complete input in the history (and the history file).
  func remember(_ input: String) {
    guard isInteractive, !input.allSatisfy(\.isWhitespace) else { return }
    add_history(input)
    if let historyPath { History.save(historyPath) }
  }
}

/// Where the history lives and how it is read and written. Problems are warnings: a REPL
/// without history is still a REPL.
enum History {
  /// `$XDG_STATE_HOME/kaleidoscope/history`, else `~/.local/state/kaleidoscope/history`.
  static func path() -> String? {
    let environment = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    let state = environment("XDG_STATE_HOME") ?? environment("HOME").map { "\($0)/.local/state" }
    return state.map { "\($0)/kaleidoscope/history" }
  }

  static func load(_ path: String) {
    guard access(path, F_OK) == 0 else { return }
    if read_history(path) != 0 {
      warn("cannot read the history file \(path); starting without history")
    }
  }

  nonisolated(unsafe) private static var warnedAboutSaving = false

  static func save(_ path: String) {
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    _ = makeDirectories(directory)
    if write_history(path) != 0 && !warnedAboutSaving {
      warnedAboutSaving = true
      warn("cannot write the history file \(path); history will not be kept")
    }
  }

  private static func makeDirectories(_ path: String) -> Bool {
    if path.isEmpty || access(path, F_OK) == 0 { return true }
    let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    return makeDirectories(parent) && mkdir(path, 0o755) == 0
  }

  private static func warn(_ message: String) {
    Terminal.writeError("warning: \(message)\n")
  }
}
