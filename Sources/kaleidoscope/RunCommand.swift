import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeRuntime

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
    try Self.run(
      input, color: color.color, engine: engine, forSemantics: semantics.forSemantics, printValues: !quiet,
      optimization: optimization.resolved(default: .standard), debugInfo: debugInfo)
  }

  /// What `run` does; the defaults are the options' (`PlainInvocation` runs it with them).
  static func run(
    _ input: InputOptions, color: ColorChoice, engine: Engine = .jit, forSemantics: ForSemantics = .current,
    printValues: Bool = true, optimization: OptimizationLevel = .standard, debugInfo: Bool = false
  ) throws {
    let file = try input.load()
    if engine == .interpreter {
      let program = try Driver.check(file, color: color)
      return try interpret(program, forSemantics: forSemantics, printValues: printValues)
    }
    let options = CodeGenOptions(forSemantics: forSemantics, printValues: printValues)
    try execute(file, color: color, options: options, optimization: optimization, debugInfo: debugInfo)
  }

  /// Runs `program` with the reference interpreter, through the same runtime as the JIT.
  static func interpret(_ program: CheckedProgram, forSemantics: ForSemantics, printValues: Bool) throws {
    ks_runtime_init()
    let interpreter = Interpreter(
      program: program, host: RuntimeHost(), forSemantics: forSemantics, printValues: printValues)
    do {
      try interpreter.run()
      ks_flush()
    } catch let error as InterpreterError {
      ks_flush()
      Terminal.writeError("\(error)\n")
      throw ExitCode.failure
    }
  }

  /// Checks `file`, compiles it into a JIT and runs its entry function on this thread.
  static func execute(
    _ file: SourceFile, color: ColorChoice, options: CodeGenOptions, optimization: OptimizationLevel,
    debugInfo: Bool = false
  ) throws {
    let (jit, address) = try Driver.backEnd { () throws -> (JIT, UInt64) in
      let machine = try JIT.machine(optimization: optimization)
      let context = Context()
      // The JIT (LLJIT's session and its two target machines, docs/BENCHMARKS.md) is made on
      // another processor while this one checks the program and generates and optimises its
      // IR. (Optionals and errors, not `Result`s: see `Driver.backEnd`.)
      var module: Module?, compiled: JIT?
      var moduleFailure: (any Error)?, jitFailure: (any Error)?
      LargeStack.concurrently(
        {
          do {
            let program = try Driver.checkOnThisThread(file, color: color)
            module = try ProgramCompiler.compile(
              program, in: context, for: machine, options: options, optimization: optimization,
              selection: .reachable, debugInfo: debugInfo)
          } catch { moduleFailure = error }
        },
        {
          do { compiled = try JIT(machine: machine, debuggable: debugInfo) } catch { jitFailure = error }
        },
        size: 1 << 20)
      if let jitFailure { throw jitFailure }
      if let moduleFailure { throw moduleFailure }
      try compiled!.add(module!)
      return (compiled!, try compiled!.address(of: Symbols.entry))
    }
    ks_runtime_init()
    let entry = unsafeBitCast(UInt(address), to: (@convention(c) () -> Void).self)
    entry()
    ks_flush()
    // The process ends now: tearing the JIT down would only cost time (about 1.3 ms).
    jit.keepUntilExit()
  }
}
