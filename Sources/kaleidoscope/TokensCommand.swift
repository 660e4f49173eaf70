import ArgumentParser
import KaleidoscopeFrontend

/// `kaleidoscope tokens`: the lexer's view of a file.
struct TokensCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tokens",
    abstract: "Print the tokens of a program, one per line with its line:column.",
    discussion: """
      Each line is LINE:COLUMN, the token's category (keyword, identifier, number, operator, \
      punctuation, error, end) and its text. Lexical errors are also reported on standard \
      error, and the exit status is then 1.

      Examples:
        kaleidoscope tokens examples/fib.ks
        echo 'def f(x) x + 1.5e3' | kaleidoscope tokens -
      """
  )

  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    let file = try input.load()
    let tokens = Lexer.tokenize(file)
    Terminal.writeOut(TokenListing.render(tokens, in: file))
    var diagnostics = DiagnosticBag()
    for token in tokens {
      if let error = token.error {
        diagnostics.append(Diagnostic(.error, error.message(text: file.text(in: token.range)), in: file, at: token.range))
      }
    }
    if DiagnosticReporter(color: color.color).report(diagnostics) {
      throw ExitCode.failure
    }
  }
}
