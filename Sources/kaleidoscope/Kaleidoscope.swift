import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// The `kaleidoscope` command: a thin layer over the front-end and back-end libraries, one
/// file per subcommand.
@main
struct Kaleidoscope: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kaleidoscope",
    abstract: "A compiler, JIT and REPL for the Kaleidoscope language.",
    discussion: """
      Kaleidoscope is the small language of LLVM's tutorial: every value is a double; there are \
      functions, externs, if/then/else, for loops, var, and user-defined operators.

      Without a subcommand, kaleidoscope starts the REPL when standard input is a terminal \
      and otherwise runs the program read from standard input.

      Examples:
        kaleidoscope run examples/mandelbrot.ks
        kaleidoscope
        kaleidoscope check examples/mandelbrot.ks
        kaleidoscope tokens examples/fib.ks
        kaleidoscope ast --tree examples/fib.ks
      """,
    version: "0.1.0",
    subcommands: [
      RunCommand.self, ReplCommand.self, BuildCommand.self, CheckCommand.self, TokensCommand.self, ASTCommand.self,
      IRCommand.self, CFGCommand.self, FormatCommand.self, LSPCommand.self, DAPCommand.self, ServeCommand.self,
      SandboxedViewCommand.self,
      PassesOfIRCommand.self, LimitedDrawCommand.self,
    ]
  )

  @OptionGroup var color: ColorOptions

  /// The entry point: `PlainInvocation` when it applies, else the command line as parsed by
  /// swift-argument-parser.
  static func main() {
    if !PlainInvocation.ran(CommandLine.arguments) { main(nil) }
  }

  /// Without a subcommand: the REPL on a terminal, otherwise the program on standard input.
  mutating func run() throws {
    if Terminal.isTerminal(STDIN_FILENO) {
      try ReplCommand.start(optimization: .standard, options: CompileOptions(), color: color.color)
    } else {
      var command = try RunCommand.parse(["-"])
      command.color = color
      try command.run()
    }
  }
}
