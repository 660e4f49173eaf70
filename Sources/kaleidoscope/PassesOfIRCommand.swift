import ArgumentParser
import KaleidoscopeBackend

/// `kaleidoscope passes-of-ir` (hidden): `ir --passes` for a module given as LLVM assembly.
/// The REPL's `:passes` runs it as a child process, since LLVM's `-print-changed` stays on
/// for the rest of the process that sets it (`PassInstrumentation`).
struct PassesOfIRCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "passes-of-ir", abstract: "Show the optimiser pass by pass on a module of LLVM IR (the REPL's :passes).",
    shouldDisplay: false)

  @OptionGroup var optimization: OptimizationOption
  @Option(help: ArgumentHelp("Only this function's changes (its IR name).", valueName: "name"))
  var function: String
  @Flag(help: "Each changed function's whole IR after the pass, not a diff.")
  var full = false
  @Argument(help: "A file of LLVM IR.")
  var file: String

  func run() throws {
    let text = try reportingBackEndErrors { try Subprocess.readFile(file) }
    let level = optimization.resolved(default: .standard)
    let log = try reportingBackEndErrors { try Pipeline.passes(ofIR: text, level: level) }
    Terminal.writeOut(PassReport(log: log, function: function, full: full).text)
  }
}
