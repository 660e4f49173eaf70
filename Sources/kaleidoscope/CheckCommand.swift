import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// `kaleidoscope check`: every diagnostic of a file, and nothing else.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Report every error in a program without running it.",
    discussion: """
      Exits with status 0 when the program is valid and 1 when it has errors, after printing \
      all of them in the form FILE:LINE:COLUMN: error: MESSAGE.

      Examples:
        kaleidoscope check examples/fib.ks
        echo 'def f(x) y' | kaleidoscope check -
      """
  )

  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    try Self.run(input, color: color.color)
  }

  /// What `check` does (`PlainInvocation` runs it too).
  static func run(_ input: InputOptions, color: ColorChoice) throws {
    let file = try input.load()
    let result = Pipeline.check(file, keeping: .diagnostics)
    let failed = DiagnosticReporter(color: color).report(result.diagnostics)
    // The process ends here: nothing built needs taking apart, as with clang's -disable-free.
    Kaleidoscope.exit(withError: failed ? ExitCode.failure : nil)
  }
}
