import ArgumentParser
import KaleidoscopeLSP

/// `kaleidoscope lsp`: the language server, for editors.
struct LSPCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lsp",
    abstract: "Run the language server (LSP 3.17 over standard input and output).",
    discussion: """
      Editors start this command and talk to it in the Language Server Protocol: \
      diagnostics as you type (the same as check's), hover, go to definition, references, \
      rename, completion, signature help, document and workspace symbols, folding, \
      semantic highlighting, quick fixes and formatting (as fmt does). It is not meant to be \
      run by hand; docs/EDITORS.md shows how to connect Neovim, VS Code and Helix.

      Examples:
        kaleidoscope lsp
        nvim --cmd "lua vim.lsp.start_client({cmd = {'kaleidoscope', 'lsp'}})" fib.ks
      """
  )

  func run() throws {
    let status = MessageLoop().run()
    if status != 0 { throw ExitCode(status) }
  }
}
