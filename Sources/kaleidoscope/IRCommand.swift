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

      With --passes, the optimisation pipeline (default -O2) is shown pass by pass: each pass \
      that changed a function, and a unified diff of that function (--full: its whole IR \
      after the pass).

      Examples:
        kaleidoscope ir examples/fib.ks
        kaleidoscope ir -O2 examples/fib.ks
        kaleidoscope ir --passes --function fib examples/fib.ks
      """
  )

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @Flag(name: .short, help: "Leave out the printing of top-level values, as `run -q` does.")
  var quiet = false
  @Flag(help: "Show what each optimisation pass changed (the pipeline of -O1 to -O3; default -O2).")
  var passes = false
  @Option(help: ArgumentHelp("With --passes: only this function's changes.", valueName: "name"))
  var function: String?
  @Flag(help: "With --passes: each changed function's whole IR after the pass, not a diff.")
  var full = false
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func validate() throws {
    if !passes, function != nil || full { throw ValidationError("--function and --full go with --passes") }
  }

  func run() throws {
    let file = try input.load()
    let options = CompileOptions(
      optimization: optimization.resolved(default: passes ? .standard : .none), forSemantics: semantics.forSemantics,
      printValues: !quiet)
    let program = try DiagnosticReporter(color: color.color).program(of: Pipeline.check(file))
    guard passes else {
      Terminal.writeOut(try reportingBackEndErrors { try Pipeline.ir(of: program, options: options) })
      return
    }
    let log = try reportingBackEndErrors { try Pipeline.passes(of: program, options: options) }
    var report = PassReport(log: log, function: nil, full: full)
    if let function {
      guard let name = PassReport.irName(of: function, in: log) else {
        Terminal.writeError("error: \(file.name) has no function '\(function)'\n")
        throw ExitCode.failure
      }
      report.function = name
    }
    Terminal.writeOut(report.text)
  }
}
