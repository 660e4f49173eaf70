import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// `kaleidoscope cfg`: each function's control-flow graph (SPEC §7).
struct CFGCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cfg",
    abstract: "Print each function's control-flow graph, in Graphviz's DOT or drawn as SVG.",
    discussion: """
      The graph is of the LLVM IR that `ir` prints, at -O0 by default, where an `if` is the \\
      classic diamond with a phi where its branches meet. Blocks are boxes with their \\
      instructions; a conditional branch's edges are labelled T and F; a loop's back edge \\
      is dashed. --format svg draws the graphs with Graphviz's `dot` \\
      (apt-get install graphviz).

      Examples:
        kaleidoscope cfg examples/fib.ks
        kaleidoscope cfg --function fib examples/fib.ks | dot -Tpng -o fib.png
        kaleidoscope cfg -O2 --format svg examples/mandelbrot.ks > mandelbrot.svg
      """
  )

  /// What `--format` writes.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case dot, svg
  }

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @Option(help: ArgumentHelp("Only this function's graph.", valueName: "name"))
  var function: String?
  @Option(help: "dot (Graphviz's language, one digraph per function) or svg (drawn).")
  var format: Format = .dot
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func run() throws {
    let file = try input.load()
    let options = CompileOptions(optimization: optimization.resolved(default: .none), forSemantics: semantics.forSemantics)
    let program = try DiagnosticReporter(color: color.color).program(of: Pipeline.check(file))
    var graphs = try reportingBackEndErrors { try Pipeline.controlFlowGraphs(of: program, options: options) }
    if let function {
      let names = [function, "\(function).ks"]
      graphs = graphs.filter { names.contains($0.function) }
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
