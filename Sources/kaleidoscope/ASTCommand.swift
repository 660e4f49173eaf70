import ArgumentParser
import KaleidoscopeFrontend

/// `kaleidoscope ast`: the parser's view of a file.
struct ASTCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ast",
    abstract: "Print the abstract syntax tree of a program.",
    discussion: """
      By default the tree is an indented dump with each node's kind and line:column; with \
      --tree each item is drawn top-down as an ASCII tree. Names are not resolved (use \
      `check` for that), so free variables are fine. Syntax errors are reported on standard \
      error (the exit status is then 1) and what did parse is still printed.

      Examples:
        kaleidoscope ast examples/fib.ks
        echo 'x + y * 2 + (4 + 5) / 3' | kaleidoscope ast --tree -
      """
  )

  @Flag(name: .long, help: "Draw each item as an ASCII tree.")
  var tree = false

  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    let file = try input.load()
    // Only syntax errors matter here: `x + y` is a fine tree even though x and y are unknown.
    let result = LargeStack.run { Parser.parse(file) }
    let syntax = result.tree
    Terminal.writeOut(tree ? ASTTreeDrawing.render(syntax) : ASTDump.render(syntax))
    if DiagnosticReporter(color: color.color).report(result.diagnostics) {
      throw ExitCode.failure
    }
  }
}
