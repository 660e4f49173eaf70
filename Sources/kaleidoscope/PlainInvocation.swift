import ArgumentParser
import KaleidoscopeSandbox

/// `kaleidoscope run FILE` and `kaleidoscope check FILE`, with no options, and the command
/// lines the playground's server gives a sandboxed run or view (`Sandbox.ChildRun`,
/// `Sandbox.ChildView`): the commands run most often, run without parsing the command line.
///
/// swift-argument-parser finds a command's options by reflection, and the Swift runtime's
/// first answers to "does this type conform to that protocol" scan every conformance record
/// of the binary, a noticeable share of a short run (docs/DESIGN.md). Only exactly these
/// shapes are taken here (a path that does not start with `-`, so never `-` for standard
/// input nor `--help`; the server's command line word for word), and they run the commands'
/// own code; the end-to-end tests require the same output as when the defaults are spelled
/// out, which goes through the parser.
enum PlainInvocation {
  /// Runs `arguments` (as `CommandLine.arguments`) if they are a plain invocation, exiting
  /// as the command would; false if they are not one.
  static func ran(_ arguments: [String]) -> Bool {
    let named = ["kaleidoscope"] + arguments.dropFirst()
    if let run = Sandbox.ChildRun(arguments: named) {
      execute { try SandboxedRun.child(run, color: .never) }
      return true
    }
    if let view = Sandbox.ChildView(arguments: named) {
      execute { try SandboxedViewCommand.show(view, color: .never) }
      return true
    }
    guard arguments.count == 3, !arguments[2].hasPrefix("-") else { return false }
    let input = InputOptions(file: arguments[2])
    let color = ColorChoice.auto
    switch arguments[1] {
    case "run": execute { try RunCommand.run(input, color: color) }
    case "check": execute { try CheckCommand.run(input, color: color) }
    default: return false
    }
    return true
  }

  /// Runs a command's work; an error ends the process as swift-argument-parser ends it.
  private static func execute(_ work: () throws -> Void) {
    do {
      try work()
    } catch {
      Kaleidoscope.exit(withError: error)
    }
  }
}
