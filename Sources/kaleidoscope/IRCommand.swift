import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// `kaleidoscope ir`: the LLVM IR of a program.
struct IRCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ir",
    abstract: "Print the LLVM IR of a program.",
    discussion: """
      Every definition is included. The default is -O0, as clang's -emit-llvm, which shows \
      the IR as generated (locals in allocas); -O1 and above show it optimised.

      Examples:
        kaleidoscope ir examples/fib.ks
        kaleidoscope ir -O2 examples/fib.ks
      """
  )

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @Flag(name: .short, help: "Leave out the printing of top-level values, as `run -q` does.")
  var quiet = false
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    let file = try input.load()
    let options = CompileOptions(
      optimization: optimization.resolved(default: .none), forSemantics: semantics.forSemantics, printValues: !quiet)
    let program = try DiagnosticReporter(color: color.color).program(of: Pipeline.check(file))
    Terminal.writeOut(try reportingBackEndErrors { try Pipeline.ir(of: program, options: options) })
  }
}
