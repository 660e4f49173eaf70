import CLLVM
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

/// Diagnostics and, when the program had no errors, what was made of it.
public struct Compilation<Product> {
  public var diagnostics: DiagnosticBag
  /// Nil when `diagnostics` has errors.
  public var product: Product?
}

/// The whole-program pipeline: source → checked program → LLVM module → JIT or file.
///
/// `run`, `build`, `ir` and the playground come through here; the REPL goes through
/// `InteractiveSession`, which compiles input by input with the same front end and IR
/// generator. Each step runs on a large stack (`LargeStack`), so callers need not arrange
/// threads.
public enum Pipeline {
  /// Which definitions to compile.
  public enum Selection: Sendable {
    /// Only what the top-level expressions can call: what running needs.
    case reachable
    /// Every definition, for `ir` and object files.
    case all
  }

  /// Parses and checks `file`.
  public static func check(
    _ file: SourceFile, mode: Frontend.Mode = .file, keeping retention: Frontend.Retention = .program
  ) -> FrontendResult {
    LargeStack.run { Frontend.check(file, mode: mode, keeping: retention) }
  }

  /// Checks `file`, compiles what its top-level expressions reach, and loads it into a JIT
  /// in this process, ready to run.
  ///
  /// The JIT (LLJIT's session and target machines) is made on a second thread while this one
  /// checks the program and generates and optimises its code, so that start-up pays for the
  /// longer of the two rather than both.
  public static func load(
    _ file: SourceFile, mode: Frontend.Mode = .file, options: CompileOptions
  ) throws -> Compilation<LoadedProgram> {
    try LargeStack.run { () throws -> Compilation<LoadedProgram> in
      let machine = try JIT.machine(optimization: options.optimization)
      let context = Context()
      var checked: FrontendResult?
      var module: Module?
      var jit: JIT?
      var failure: (any Error)?
      LargeStack.concurrently(
        {
          checked = Frontend.check(file, mode: mode)
          guard let program = checked?.program, checked?.diagnostics.hasErrors == false else { return }
          do {
            module = try Self.module(for: program, in: context, for: machine, options: options, selection: .reachable)
          } catch { failure = error }
        },
        {
          do { jit = try JIT(machine: machine, debuggable: options.debugInfo) } catch { failure = error }
        },
        size: 1 << 20)
      if let failure { throw failure }
      guard let module, let jit else { return Compilation(diagnostics: checked!.diagnostics, product: nil) }
      try jit.add(module)
      let loaded = LoadedProgram(jit: jit, entry: try jit.address(of: Symbols.entry))
      return Compilation(diagnostics: checked!.diagnostics, product: loaded)
    }
  }

  /// The LLVM IR of every definition of a program without errors, as `ir` prints it.
  public static func ir(of program: CheckedProgram, options: CompileOptions) throws -> String {
    try LargeStack.run { () throws -> String in
      let machine = try TargetMachine(optimization: options.optimization)
      return try module(for: program, in: Context(), for: machine, options: options, selection: .all).text
    }
  }

  /// What each pass of `options.optimization`'s pipeline did to the IR of every definition
  /// of a program without errors (`ir --passes`). It turns LLVM's `-print-changed` on for
  /// the rest of the process (`PassInstrumentation`). The log goes through `logFile`, or a
  /// temporary file of its own.
  public static func passes(of program: CheckedProgram, options: CompileOptions, logFile: PassLogFile? = nil) throws
    -> PassLog
  {
    try LargeStack.run { () throws -> PassLog in
      let machine = try TargetMachine(optimization: options.optimization)
      var unoptimized = options
      unoptimized.optimization = .none
      let module = try module(for: program, in: Context(), for: machine, options: unoptimized, selection: .all)
      let log = try PassInstrumentation.capture(into: logFile) {
        try module.optimize(level: options.optimization, for: machine)
      }
      return PassLog(printChangedOutput: log[...])
    }
  }

  /// The same for a module given as LLVM assembly (the REPL's `:passes`, in a child process:
  /// see `PassInstrumentation`).
  public static func passes(ofIR text: String, level: OptimizationLevel) throws -> PassLog {
    try LargeStack.run { () throws -> PassLog in
      let machine = try TargetMachine(optimization: level)
      let module = try Module(parsing: text, context: Context())
      let log = try PassInstrumentation.capture { try module.optimize(level: level, for: machine) }
      return PassLog(printChangedOutput: log[...])
    }
  }

  /// The control-flow graph of each function of the IR `ir` prints for a program without
  /// errors (`cfg`).
  public static func controlFlowGraphs(of program: CheckedProgram, options: CompileOptions) throws -> [ControlFlowGraph] {
    let text = try ir(of: program, options: options)
    return IRText.functions(in: text[...]).map { ControlFlowGraph(function: $0.name, ir: $0.text) }
  }

  /// The control-flow graph of each function of the machine code for `target` (nil: this
  /// machine), as `assembly` prints it (`cfg --asm`). wasm32 has none: its control flow is
  /// structured (`block`, `loop`, `br_if`), not jumps between labels.
  public static func machineControlFlowGraphs(
    of program: CheckedProgram, target: String?, options: CompileOptions
  ) throws -> [ControlFlowGraph] {
    if let target, target.hasPrefix("wasm") {
      throw BackendError.unknownTarget(
        "cfg --asm draws x86-64, AArch64 and RISC-V 64 code; wasm32's control flow is structured (block, loop, br_if), "
          + "not jumps between labels: draw its IR instead")
    }
    return ControlFlowGraph.graphs(ofAssembly: try assembly(of: program, target: target, options: options))
  }

  /// The assembly of every definition of a program without errors, for `target` (nil: this
  /// machine), as `build --emit asm` writes it but without `main` (the playground's pane).
  public static func assembly(of program: CheckedProgram, target: String?, options: CompileOptions) throws -> String {
    try LargeStack.run { () throws -> String in
      let machine = try TargetMachine(triple: target, optimization: options.optimization)
      let module = try module(for: program, in: Context(), for: machine, options: options, selection: .all)
      return try ObjectEmitter.assembly(of: module, machine: machine)
    }
  }

  /// Compiles `file` for `target` (nil: this machine) and writes it to `path` as `kind`; an
  /// executable is linked with the runtime by the system's C compiler.
  public static func emit(
    _ file: SourceFile, as kind: EmitKind, target: String?, to path: String, options: CompileOptions
  ) throws -> Compilation<Void> {
    try LargeStack.run { () throws -> Compilation<Void> in
      let checked = Frontend.check(file)
      guard !checked.diagnostics.hasErrors else { return Compilation(diagnostics: checked.diagnostics, product: nil) }
      let machine = try TargetMachine(triple: target, optimization: options.optimization)
      let module = try module(
        for: checked.program, in: Context(), for: machine, options: options,
        selection: kind == .exe ? .reachable : .all, withMain: true)
      if kind == .exe {
        let work = try TemporaryDirectory()
        let object = "\(work.path)/program.o"
        try ObjectEmitter.write(module, kind: .obj, to: object, machine: machine)
        try Linker.link(object: object, output: path, workDirectory: work.path)
      } else {
        try ObjectEmitter.write(module, kind: kind, to: path, machine: machine)
      }
      return Compilation(diagnostics: checked.diagnostics, product: ())
    }
  }

  /// Runs a checked program with the reference interpreter, printing through the runtime the
  /// compiled engines use, so that every engine's output is byte for byte the same.
  /// The process is expected to end after the run: the program's global arrays are left to
  /// its exit, as compiled code leaves them. An observer (a trace) may watch the run; it
  /// then hears of the end even when an extern fails (`RuntimeHost.protectsCalls`).
  public static func interpret(
    _ program: CheckedProgram, options: CompileOptions, observer: (any DebugObserver)? = nil
  ) throws(InterpreterError) {
    ks_runtime_init()
    let interpreter = Interpreter(
      program: program, host: RuntimeHost(protectsCalls: observer != nil), forSemantics: options.forSemantics,
      printValues: options.printValues)
    interpreter.leavesArraysToProcessExit = true
    interpreter.debugObserver = observer
    defer { ks_flush() }
    try interpreter.run()
  }

  /// Runs a checked program in tiers: the interpreter at once, LLVM for what becomes hot or
  /// can run for long (`TieredExecution`). Output and errors are the other engines'. As
  /// `interpret`, it leaves the global arrays to the process's exit. A caller that ends the
  /// process with `_exit` next need not wait for a compile still in progress
  /// (`waitsForCompiler`; see `TieredExecution.finish`). Machine code from earlier runs
  /// comes from `cache`, if given, and this run's goes there.
  @discardableResult
  public static func runTiered(
    _ program: CheckedProgram, options: CompileOptions, policy: TierPolicy, cache: MachineCodeCache? = nil,
    waitsForCompiler: Bool = true
  ) throws(InterpreterError) -> TierStatistics {
    ks_runtime_init()
    let interpreter = Interpreter(
      program: program, host: RuntimeHost(), forSemantics: options.forSemantics, printValues: options.printValues)
    interpreter.leavesArraysToProcessExit = true
    let tiers = TieredExecution(
      program: program, globals: interpreter.globals, options: options, policy: policy, cache: cache)
    interpreter.compiledCode = tiers
    defer {
      ks_flush()
      tiers.finish(waits: waitsForCompiler)
    }
    try interpreter.run()
    tiers.statistics.recordInterpreted(
      functions: interpreter.interpretedFunctions, loopIterations: interpreter.interpretedLoopIterations)
    return tiers.statistics
  }

  /// Emits, verifies and (at `-O1` and above) optimises a checked program's module.
  /// Externs that `resolves` rejects become stubs that report the missing symbol when called.
  public static func module(
    for program: CheckedProgram, in context: Context, for machine: TargetMachine, options: CompileOptions,
    selection: Selection, withMain: Bool = false, resolves: (String) -> Bool = HostSymbols.resolves
  ) throws -> Module {
    let module = Module(name: program.file.name, context: context)
    module.configure(for: machine)
    let bodies = selection == .reachable ? program.reachableBodies : program.bodies
    let unresolved = Set(
      program.functions.symbols.filter { $0.origin == .external && !resolves($0.spelling) }.map(\.spelling))
    let debugInfo =
      options.debugInfo
      ? DebugInfoBuilder(module: module, source: program.file, isOptimized: options.optimization != .none) : nil
    let generator = IRGenerator(
      program: program, module: module, options: options, linking: .wholeProgram(exported: selection == .all),
      unresolved: unresolved, debugInfo: debugInfo)
    var entries: [(function: LLVMValueRef, printed: Bool)] = []
    for body in bodies {
      switch body.kind {
      case .function:
        generator.emitDefinition(body)
      case .topLevel(let index):
        entries.append((generator.emitTopLevel(body, name: "__anon_\(index)", isInternal: true), true))
      case .globalDeclaration(let index):
        entries.append((generator.emitTopLevel(body, name: "__globals_\(index)", isInternal: true), false))
      }
    }
    generator.emitEntry(calling: entries)
    if selection == .reachable { generator.inlineSoleCallees() }
    if withMain { generator.emitMain() }
    debugInfo?.finalize()
    try module.verify()
    if options.optimization != .none {
      try module.optimize(level: options.optimization, for: machine)
    }
    return module
  }
}
