import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeSandbox

/// `kaleidoscope sandboxed-view` (hidden): the playground's panes. It reads a program as
/// `run --sandboxed` does, limits and seals itself before the front end sees a byte, and
/// prints one view of it, with every diagnostic of the whole front end, so that no input can
/// hang or crash the server that asked.
struct SandboxedViewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: Sandbox.viewCommand, abstract: "Print a view of a program, sandboxed (the playground).",
    shouldDisplay: false)

  /// What to print.
  enum View: String, ExpressibleByArgument {
    case tokens, ast, ir, asm
  }

  @Option(help: "tokens, ast, ir or asm.")
  var view: View
  @Option(help: "The target triple of the asm view.")
  var target: String?
  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var sandbox: SandboxOptions
  @OptionGroup var color: ColorOptions
  @Argument(help: "The name diagnostics give the source.")
  var name = "<stdin>"

  func run() throws {
    guard let source = SandboxedRun.readSource() else {
      Terminal.writeError("error: sandbox: expected the source's length and bytes on standard input\n")
      throw ExitCode.validationFailure
    }
    SandboxedRun.enter(cpuSeconds: sandbox.cpuSeconds, memoryBytes: sandbox.memoryBytes, reserved: 0)
    let file = SourceFile(name: name, bytes: source)
    let reporter = DiagnosticReporter(color: color.color, json: sandbox.jsonDiagnostics)
    let checked = Pipeline.check(file)
    // Debug locations let the page link each source line to its IR and assembly.
    let options = CompileOptions(optimization: optimization.resolved(default: .none), debugInfo: true)
    var text = ""
    switch view {
    case .tokens:
      text = TokenListing.render(Lexer.tokenize(file), in: file)
    case .ast:
      text = ASTDump.render(LargeStack.run { Parser.parse(file) }.tree)
    case .ir where !checked.diagnostics.hasErrors:
      text = try reportingBackEndErrors { try Pipeline.ir(of: file, options: options) }.product ?? ""
    case .asm where !checked.diagnostics.hasErrors:
      text = try reportingBackEndErrors { try Pipeline.assembly(of: file, target: target, options: options) }.product ?? ""
    case .ir, .asm:
      break
    }
    Terminal.writeOut(text)
    if reporter.report(checked.diagnostics) { throw ExitCode.failure }
  }
}
