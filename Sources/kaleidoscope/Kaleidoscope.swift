import ArgumentParser
import KaleidoscopeFrontend

/// The `kaleidoscope` command: a thin layer over the front-end and back-end libraries, one
/// file per subcommand.
@main
struct Kaleidoscope: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kaleidoscope",
    abstract: "A compiler, JIT and REPL for the Kaleidoscope language.",
    discussion: """
      Kaleidoscope is the small language of LLVM's tutorial: every value is a double; there are
      functions, externs, if/then/else, for loops, var, and user-defined operators.

      Examples:
        kaleidoscope check examples/mandelbrot.ks
        kaleidoscope tokens examples/fib.ks
        kaleidoscope ast --tree examples/fib.ks
      """,
    version: "0.1.0",
    subcommands: [CheckCommand.self, TokensCommand.self, ASTCommand.self]
  )
}
