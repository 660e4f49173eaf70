import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeDAP

/// `kaleidoscope dap`: the debug adapter, for editors.
struct DAPCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dap",
    abstract: "Run the debug adapter (the Debug Adapter Protocol over standard input and output).",
    discussion: """
      Editors start this command to debug a program in the interpreter: line, function, \
      conditional and hit-count breakpoints and logpoints; continue, step over, into and \
      out, pause; the call stack, locals, globals and arrays (paged); expressions in a \
      frame; changing a number; a stop at a runtime error. The launch request names the \
      program (`program`), and may name a file for its standard input (`stdin`) and ask \
      to stop at its first line (`stopOnEntry`). It is not meant to be run by hand; \
      docs/EDITORS.md shows how to connect VS Code, Neovim (nvim-dap) and Helix.

      Examples:
        kaleidoscope dap
        (nvim-dap) adapters.kaleidoscope = { type = 'executable', command = 'kaleidoscope', args = { 'dap' } }
      """
  )

  func run() throws {
    // Externs resolve in this process as `run --tier interp` resolves them; a fault in one
    // ends the run, not the adapter.
    let status = DebugAdapter(host: RuntimeHost(protectsCalls: true)).run()
    if status != 0 { throw ExitCode(status) }
  }
}
