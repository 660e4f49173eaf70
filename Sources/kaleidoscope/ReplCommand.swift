#if canImport(Glibc)
  import Glibc
#endif
import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// `kaleidoscope repl`: read, compile, run, print, one input at a time.
struct ReplCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "Start an interactive session.",
    discussion: """
      Each definition is compiled and kept; each expression is compiled, run, and its value
      printed. Redefining a function changes it for every later call, including calls from
      functions defined earlier. The math library (sin cos tan asin acos atan atan2 sinh cosh
      tanh exp log log10 pow sqrt fabs floor ceil fmod) is declared up front. An input that
      is not finished (an open parenthesis, `def f(x)` without a body) continues on the next
      line; an empty line ends it. Prompts are shown only on a terminal.

      Examples:
        kaleidoscope repl
        kaleidoscope repl -O0 --for-semantics=legacy
        printf 'def sq(x) x*x\\nsq(12)\\n' | kaleidoscope repl
      """
  )

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    try Self.start(
      optimization: optimization.resolved(default: .standard),
      options: CodeGenOptions(forSemantics: semantics.forSemantics), color: color)
  }

  /// Inputs are compiled and run on a thread with this much stack: runaway recursion in
  /// the program hits the limit (and is reported) quickly.
  static let stackSize = 64 << 20

  static func start(optimization: OptimizationLevel, options: CodeGenOptions, color: ColorOptions) throws {
    let session = try Driver.backEnd { try InteractiveSession(optimization: optimization, options: options) }
    let interactive = Terminal.isTerminal(STDIN_FILENO)
    let reporter = DiagnosticReporter(color: color)
    var pending = ""
    var inputNumber = 0
    while true {
      if interactive { Terminal.writeOut(pending.isEmpty ? "ready> " : "  ...> ") }
      guard let line = readLine(strippingNewline: false) else { break }
      let isBlank = line.allSatisfy(\.isWhitespace)
      if pending.isEmpty && isBlank { continue }
      pending += line
      inputNumber += 1
      let file = SourceFile(name: "<repl>", text: pending)
      let outcome = try Driver.backEnd(stackSize: Self.stackSize) { try session.evaluate(file, isFinal: isBlank) }
      switch outcome {
      case .incomplete:
        continue
      case .failed(let diagnostics):
        reporter.report(diagnostics, summary: false)
      case .evaluated:
        break
      }
      pending = ""
    }
    if !pending.isEmpty {
      if case .failed(let diagnostics) = try Driver.backEnd({ try session.evaluate(SourceFile(name: "<repl>", text: pending)) }) {
        reporter.report(diagnostics, summary: false)
      }
    }
    if interactive { Terminal.writeOut("\n") }
  }
}
