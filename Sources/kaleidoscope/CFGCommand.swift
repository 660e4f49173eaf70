import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeSandbox

/// `kaleidoscope cfg`: each function's control-flow graph (SPEC §7).
struct CFGCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cfg",
    abstract: "Print each function's control-flow graph, in Graphviz's DOT or drawn as SVG.",
    discussion: """
      The graph is of the LLVM IR that `ir` prints, at -O0 by default, where an `if` is the \
      classic diamond with a phi where its branches meet; with --asm, of the machine code \
      for --target (x86-64, aarch64 or riscv64; default this machine). Blocks are boxes \
      with their instructions; a conditional branch's edges are labelled T and F; a loop's \
      back edge is dashed. --format svg draws the graphs with Graphviz's `dot` \
      (apt-get install graphviz).

      Examples:
        kaleidoscope cfg examples/fib.ks
        kaleidoscope cfg --function fib examples/fib.ks | dot -Tpng -o fib.png
        kaleidoscope cfg -O2 --format svg examples/mandelbrot.ks > mandelbrot.svg
        kaleidoscope cfg --asm -O2 --target aarch64 --function fibloop examples/fib.ks
      """
  )

  /// What `--format` writes.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case dot, svg
  }

  /// Which code is drawn.
  enum Code: String, EnumerableFlag {
    case ir, asm

    static func help(for value: Code) -> ArgumentHelp? {
      value == .ir ? "Draw the LLVM IR (the default)." : "Draw the machine code of --target."
    }
  }

  @Flag var code: Code = .ir
  @Option(help: "With --asm: x86-64, aarch64, riscv64, or a triple of one of them (default: this machine).")
  var target: String?
  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @Option(help: ArgumentHelp("Only this function's graph.", valueName: "name"))
  var function: String?
  @Option(help: "dot (Graphviz's language, one digraph per function) or svg (drawn).")
  var format: Format = .dot
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func validate() throws {
    if target != nil && code != .asm { throw ValidationError("--target goes with --asm") }
  }

  func run() throws {
    let file = try input.load()
    let options = CompileOptions(optimization: optimization.resolved(default: .none), forSemantics: semantics.forSemantics)
    let program = try DiagnosticReporter(color: color.color).program(of: Pipeline.check(file))
    var graphs = try reportingBackEndErrors {
      switch code {
      case .ir: try Pipeline.controlFlowGraphs(of: program, options: options)
      case .asm:
        try Pipeline.machineControlFlowGraphs(of: program, target: target.map(TargetName.triple(for:)), options: options)
      }
    }
    if let function {
      let name = IRText.functionName(function, among: graphs.map(\.function))
      graphs = graphs.filter { $0.function == name }
      guard !graphs.isEmpty else {
        Terminal.writeError("error: \(file.name) has no function '\(function)'\n")
        throw ExitCode.failure
      }
    }
    switch format {
    case .dot:
      Terminal.writeOut(graphs.map { $0.dot() }.joined(separator: "\n"))
    case .svg:
      Terminal.writeOut(try reportingBackEndErrors { try Graphviz.svg(of: ControlFlowGraph.dot(combining: graphs)) })
    }
  }
}
