import ArgumentParser
import CSandbox
import KaleidoscopeBackend
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope limited-draw` (hidden): the playground's drawing of a `cfg` view. It reads
/// a graph in DOT framed as a sandboxed program is, limits its CPU time and memory (which
/// Graphviz's `dot`, its child, inherits) and prints the SVG. It cannot be sealed as a
/// sandboxed view is, since it runs `dot`; the DOT it draws is the view's own output.
struct LimitedDrawCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: Sandbox.drawCommand, abstract: "Draw a graph given in DOT as SVG, limited (the playground).",
    shouldDisplay: false)

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var sandbox: SandboxOptions
  @OptionGroup var color: ColorOptions
  @Argument(help: "Unused: the name a source would have.")
  var name = "<stdin>"

  func run() throws {
    guard let source = SandboxInput.readSource() else {
      Terminal.writeError("error: sandbox: expected the graph's length and bytes on standard input\n")
      throw ExitCode.validationFailure
    }
    guard ks_sandbox_limit(UInt32(sandbox.cpuSeconds), sandbox.memoryBytes, 0) == 0 else {
      Terminal.writeError("error: sandbox: cannot limit this process: \(String(cString: strerror(errno)))\n")
      throw ExitCode.failure
    }
    let dot = String(decoding: source, as: UTF8.self)
    Terminal.writeOut(try reportingBackEndErrors { try Graphviz.svg(of: dot) })
  }
}
