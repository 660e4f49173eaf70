import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// `kaleidoscope run`: compile the whole file with LLVM, then run it in this process.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Compile a program and run its top-level expressions in order.",
    discussion: """
      The whole file is compiled first (a function may be called before its definition), \
      optimised (-O2 unless told otherwise) and run by LLVM's ORC JIT. Each top-level \
      expression's value is printed on its own line, interleaved with what the program \
      writes; -q prints only what the program writes. A file with errors runs nothing.

      Examples:
        kaleidoscope run examples/mandelbrot.ks
        kaleidoscope run -O0 --for-semantics=legacy examples/fib.ks
        echo 'extern sqrt(x); sqrt(2)' | kaleidoscope run -
        kaleidoscope run --engine interpreter examples/fib.ks
        gdb -q -ex 'break fib' -ex run --args kaleidoscope run -g -O0 examples/fib.ks
      """
  )

  @Flag(name: .short, help: "Print only the program's own output, not the values of top-level expressions.")
  var quiet = false

  @Flag(name: .customShort("g"), help: "Generate DWARF debug information and register the JIT's code with gdb.")
  var debugInfo = false

  @Option(help: "What runs the program: jit (LLVM's ORC JIT) or interpreter (the reference interpreter, no LLVM).")
  var engine: Engine = .jit

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  /// The engines that can run a program; they print the same output.
  enum Engine: String, ExpressibleByArgument, CaseIterable {
    case jit
    case interpreter
  }

  func validate() throws {
    if engine == .interpreter && debugInfo {
      throw ValidationError("-g needs the JIT; the interpreter runs no machine code to debug")
    }
  }

  func run() throws {
    let options = CompileOptions(
      optimization: optimization.resolved(default: .standard), forSemantics: semantics.forSemantics,
      printValues: !quiet, debugInfo: debugInfo)
    try Self.run(input, color: color.color, engine: engine, options: options)
  }

  /// What `run` does; the defaults are the options' (`PlainInvocation` runs it with them).
  static func run(_ input: InputOptions, color: ColorChoice, engine: Engine = .jit, options: CompileOptions = CompileOptions()) throws {
    let file = try input.load()
    let reporter = DiagnosticReporter(color: color)
    switch engine {
    case .interpreter:
      let program = try reporter.program(of: Pipeline.check(file))
      do {
        try Pipeline.interpret(program, options: options)
      } catch {
        Terminal.writeError("\(error)\n")
        throw ExitCode.failure
      }
    case .jit:
      let loaded = try reporter.product(of: reportingBackEndErrors { try Pipeline.load(file, options: options) })
      loaded.run()
    }
    // The process ends here: nothing built needs taking apart, as with clang's -disable-free.
    Kaleidoscope.exit()
  }
}
