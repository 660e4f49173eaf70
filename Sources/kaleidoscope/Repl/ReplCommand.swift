import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeRuntime
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope repl`: read, compile, run, print, one input at a time.
struct ReplCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "Start an interactive session.",
    discussion: """
      Each definition is compiled and kept; each expression is run, and its value printed. \
      With --tier auto (the default) expressions start in the interpreter at once and new \
      definitions compile in the background; --tier jit compiles every input first. Redefining a function changes it for every later call, including calls from \
      functions defined earlier. The math library (sin cos tan asin acos atan atan2 sinh cosh \
      tanh exp log log10 pow sqrt fabs floor ceil fmod) is declared up front. Globals (var x = 1, \
      var a[10]) keep their values from one input to the next. An input that \
      is not finished (an open parenthesis, `def f(x)` without a body) continues on the next \
      line; an empty line ends it. Prompts are shown only on a terminal.

      On a terminal, lines are edited with libedit (arrow keys, Ctrl-A/E/K/W, Ctrl-R to \
      search), Tab completes keywords, functions and commands, and the history is kept in \
      $XDG_STATE_HOME/kaleidoscope/history (~/.local/state/kaleidoscope/history). Commands \
      start with a colon: :help lists them (:defs, :type, :ir, :asm, :ast, :tokens, :time, \
      :load, :reset, :opt, :quit). Ctrl-C cancels the line being typed, or stops the code \
      that is running and keeps every definition; Ctrl-D on an empty line leaves.

      Examples:
        kaleidoscope repl
        kaleidoscope repl -O0 --for-semantics=legacy
        kaleidoscope repl --tier jit
        printf 'def sq(x) x*x\\nsq(12)\\n' | kaleidoscope repl
      """
  )

  @Option(
    help:
      "auto: expressions start in the interpreter and definitions compile in the background; jit: compile each input before it runs."
  )
  var tier: Tier = .auto
  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @OptionGroup var color: ColorOptions

  func validate() throws {
    if tier == .interp { throw ValidationError("the REPL runs in the auto or the jit tier, not interp") }
  }

  func run() throws {
    try Self.start(
      optimization: optimization.resolved(default: .standard),
      options: CompileOptions(forSemantics: semantics.forSemantics), tiered: tier == .auto, color: color.color)
  }

  /// Inputs are compiled and run on a thread with the stack every engine runs programs on,
  /// which holds the language's deepest recursion.
  static let stackSize = Int(KS_STACK_SIZE)

  static func start(optimization: OptimizationLevel, options: CompileOptions, tiered: Bool = true, color: ColorChoice) throws {
    let session = try makeSession(optimization: optimization, options: options, tiered: tiered)
    let editor = LineEditor(interactive: Terminal.isTerminal(STDIN_FILENO))
    let reporter = DiagnosticReporter(color: color)
    var commands = MetaCommands(session: session, reporter: reporter)
    var pending = ""
    reading: while true {
      LineEditor.completions =
        Keyword.allCases.map(\.spelling) + MetaCommands.names + commands.session.symbols.map(\.spelling)
        + commands.session.globals.map(\.spelling)
      let line: String
      switch editor.read(prompt: pending.isEmpty ? "ready> " : "  ...> ") {
      case .end: break reading
      case .interrupted:
        Terminal.writeOut("^C\n")
        pending = ""
        continue
      case .line(let text): line = text
      }
      if pending.isEmpty && line.trimmed.hasPrefix(":") {
        editor.remember(line)
        switch try commands.run(line) {
        case .proceed: continue
        case .quit: return try finish(editor, commands.session)
        }
      }
      let isBlank = line.allSatisfy(\.isWhitespace)
      if pending.isEmpty && isBlank { continue }
      pending += line + "\n"
      let file = SourceFile(name: "<repl>", text: pending)
      if try evaluate(file, in: commands.session, isFinal: isBlank, reporter: reporter, timing: commands.timing) {
        editor.remember(String(pending.dropLast()))
        pending = ""
      }
    }
    if !pending.isEmpty {
      _ = try evaluate(
        SourceFile(name: "<repl>", text: pending), in: commands.session, isFinal: true, reporter: reporter, timing: false)
    }
    try finish(editor, commands.session)
  }

  /// A new session (the prelude compiled), or a one-line error and status 1.
  static func makeSession(optimization: OptimizationLevel, options: CompileOptions, tiered: Bool) throws -> InteractiveSession {
    try reportingBackEndErrors {
      try LargeStack.run { () throws -> InteractiveSession in
        try InteractiveSession(optimization: optimization, options: options, tiered: tiered)
      }
    }
  }

  private static func finish(_ editor: LineEditor, _ session: InteractiveSession) throws {
    try reportingBackEndErrors { try session.finish() }
    if editor.isInteractive { Terminal.writeOut("\n") }
  }

  private static func milliseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Evaluates one input; false when it is incomplete and needs more lines.
  @discardableResult
  static func evaluate(
    _ file: SourceFile, in session: InteractiveSession, isFinal: Bool, reporter: DiagnosticReporter, timing: Bool
  ) throws -> Bool {
    let clock = ContinuousClock()
    let start = clock.now
    // Ctrl-C during an evaluation must reach the thread running it (the runtime jumps out
    // of the running code there), so this thread blocks SIGINT meanwhile.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_BLOCK, &interrupt, nil)
    defer { pthread_sigmask(SIG_UNBLOCK, &interrupt, nil) }
    let outcome = try reportingBackEndErrors {
      try LargeStack.run(size: Self.stackSize) { () throws -> InteractiveSession.Outcome in
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        return try session.evaluate(file, isFinal: isFinal)
      }
    }
    switch outcome {
    case .incomplete:
      return false
    case .failed(let diagnostics):
      _ = reporter.report(diagnostics, summary: false)
    case .evaluated:
      if timing {
        let run = session.lastRunTime
        let compile = clock.now - start - run
        Terminal.writeError("(compile \(milliseconds(compile)) ms, run \(milliseconds(run)) ms)\n")
      }
    }
    return true
  }
}
