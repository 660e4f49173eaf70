import CLLVM
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// A REPL session: each input is parsed, checked against everything defined so far,
/// compiled into its own module and added to one JIT.
///
/// Definitions stay in the JIT for the whole session. Every call to a user-defined function
/// goes through that name's *slot*, a global holding the address of its current definition,
/// so redefining `f` changes what earlier functions that call `f` do. A global is one symbol
/// for the whole session, defined in a module of its own when first declared, so a
/// declaration that gives it a new value reaches every function. Top-level expressions and
/// declarations are compiled under a resource tracker and their code is freed once they
/// have run.
public final class InteractiveSession {
  /// What evaluating one input did.
  public enum Outcome {
    /// The input is not finished (`def f(x)`, an open parenthesis): read more.
    case incomplete
    /// Errors; nothing was run and the session is unchanged.
    case failed(DiagnosticBag)
    /// Definitions were added and expressions ran (their values printed by the runtime).
    /// `faulted` is true when a runtime error stopped an expression.
    case evaluated(faulted: Bool)
  }

  /// The optimisation pipeline for the inputs to come (the REPL's `:opt`).
  public var optimization: OptimizationLevel
  public let options: CompileOptions
  private let jit: JIT
  private let context = Context()
  /// What earlier inputs declared.
  var declarations = Declarations()
  /// Which names have a slot defined in the JIT.
  private var slots: Set<String> = []
  private var definitionCount = 0
  /// The interpreter tier and background compiles; nil when every input is compiled first
  /// (`tiered: false`, or debug info, which pins machine code for the debugger).
  let tiers: InteractiveTiers?
  /// Each global defined in the JIT, by spelling, and its cell there.
  var globalCells: [String: UnsafeMutableRawPointer] = [:]
  /// Whether expressions start in the interpreter (`init(tiered:)`).
  public var isTiered: Bool { tiers != nil }
  /// How many of the session's top-level expressions ran in the interpreter.
  public private(set) var interpretedExpressions = 0
  /// How long the last input's expressions ran (the rest of `evaluate` is compiling).
  public private(set) var lastRunTime: Duration = .zero
  /// The optimised IR of the input that last defined each function (the REPL's `:ir`).
  private var definitionIR: [String: String] = [:]
  /// The same input's IR before optimisation, and each definition's IR name in it.
  private var definitionSourceIR: [String: (ir: String, symbol: String)] = [:]
  private var expressionCount = 0

  /// With `tiered`, expressions start in the interpreter and new definitions compile in
  /// the background (`InteractiveTiers`).
  public init(optimization: OptimizationLevel = .standard, options: CompileOptions = CompileOptions(), tiered: Bool = true)
    throws
  {
    self.optimization = optimization
    self.options = options
    tiers = tiered && !options.debugInfo ? InteractiveTiers() : nil
    jit = try JIT(optimization: optimization)
    ks_runtime_init()
    // The prelude: the math library is declared up front, so the REPL is a calculator.
    if case .failed(let diagnostics) = try evaluate(SourceFile(name: "<prelude>", text: HostLibrary.preludeSource)) {
      preconditionFailure("the prelude must check: \(diagnostics.all)")
    }
  }

  /// Waits for the definitions still compiling: before the process exits, LLVM's static
  /// destructors must not run under a thread inside LLVM.
  public func finish() throws {
    try tiers?.waitForCompiles()
  }

  /// The functions defined or declared so far.
  public var symbols: [FunctionSymbol] { declarations.functions.symbols }

  /// The spelling of a symbol's prototype: `fib(n)`, `binary| 5 (a b)`.
  public func signature(of symbol: FunctionSymbol) -> String {
    symbol.prototype.spelling(names: declarations.names)
  }

  /// Parses `text` with the operators defined so far (the REPL's `:ast`).
  public func parse(_ file: SourceFile) -> ParseResult {
    Parser.parse(file, names: declarations.names, operators: declarations.operators)
  }

  /// The optimised IR of the input that last defined `name`.
  public func ir(of name: String) throws -> String? {
    try tiers?.waitForCompiles()
    return definitionIR[name]
  }

  /// The IR before optimisation of the input that last defined `name`, and the IR name of
  /// `name`'s definition in it (the REPL's `:passes`).
  public func unoptimizedIR(of name: String) throws -> (ir: String, symbol: String)? {
    try tiers?.waitForCompiles()
    return definitionSourceIR[name]
  }

  /// The control-flow graph of `name`'s optimised definition (the REPL's `:cfg`).
  public func controlFlowGraph(of name: String) throws -> ControlFlowGraph? {
    guard let ir = try ir(of: name), let symbol = definitionSourceIR[name]?.symbol,
      let function = IRText.functions(in: ir[...]).first(where: { $0.name == symbol })
    else { return nil }
    return ControlFlowGraph(function: name, ir: function.text)
  }

  /// The machine code of the input that last defined `name`, as assembly.
  public func assembly(of name: String) throws -> String? {
    guard let ir = try ir(of: name) else { return nil }
    return try ObjectEmitter.assembly(ofIR: ir, machine: jit.machine)
  }

  /// Evaluates one input. Runs on the calling thread; call it on a large stack. Unless
  /// `isFinal`, an input that stops in the middle of an item asks for more.
  public func evaluate(_ file: SourceFile, isFinal: Bool = true) throws -> Outcome {
    try tiers?.waitForCompiles()
    let checked = Frontend.check(file, after: declarations, mode: .interactive)
    if !isFinal && checked.isIncomplete && checked.diagnostics.hasErrors { return .incomplete }
    if checked.diagnostics.hasErrors { return .failed(checked.diagnostics) }
    tiers?.reserve(checked.program.functions.symbols.count)
    let known = Set(declarations.functions.symbols.map(\.spelling))
    declarations = checked.declarations
    let program = checked.program
    try addGlobals(of: program)
    let interpreted = interpretedBodies(of: program)
    try addDefinitions(of: program, inBackground: compilesInBackground(program, interpreted, known: known))
    var faulted = false
    lastRunTime = .zero
    for (index, body) in program.bodies.enumerated() where body.function == nil && !faulted {
      faulted = interpreted.contains(index) ? try interpret(index, of: program) : try run(body, of: program)
    }
    return .evaluated(faulted: faulted)
  }

  /// The input's top-level expressions the interpreter runs: all of them in tiers, except
  /// those with a loop, which machine code runs faster from the first iteration on.
  private func interpretedBodies(of program: CheckedProgram) -> Set<Int> {
    guard tiers != nil, program.globals.symbols.allSatisfy({ globalCells[$0.spelling] != nil }) else { return [] }
    return Set(
      program.bodies.indices.filter { index in
        let body = program.bodies[index]
        guard body.function == nil, case .topLevel = body.kind else { return false }
        return !body.hasLoop
      })
  }

  /// Whether the input's definitions can compile while its expressions are interpreted:
  /// each defines a name never declared before (so no compiled code calls it), has no loop
  /// (which would run interpreted until its code is ready), and nothing else in the input
  /// needs compiling on this thread.
  private func compilesInBackground(_ program: CheckedProgram, _ interpreted: Set<Int>, known: Set<String>) -> Bool {
    guard tiers != nil else { return false }
    for (index, body) in program.bodies.enumerated() {
      guard let function = body.function else {
        if !interpreted.contains(index) { return false }
        continue
      }
      if known.contains(program.functions[function].spelling) || body.hasLoop { return false }
    }
    return true
  }

  private static func slotName(_ spelling: String) -> String { "__ks_slot.\(spelling)" }
  private static func globalName(_ spelling: String) -> String { "__ks_global.\(spelling)" }

  /// Defines the globals this input declares for the first time, in a module kept for the
  /// session: zero (an empty array) until their declaration runs.
  private func addGlobals(of program: CheckedProgram) throws {
    let new = program.globals.ids.filter { globalCells[program.globals[$0].spelling] == nil }
    guard !new.isEmpty else { return }
    let spellings = Set(new.map { program.globals[$0].spelling })
    let module = Module(name: "globals.\(globalCells.count)", context: context)
    module.configure(for: jit.machine)
    let generator = makeGenerator(program, module, [:], defining: spellings)
    for id in new { _ = generator.globalVariable(id) }
    try finish(module, optimizing: false)
    try jit.add(module)
    for spelling in spellings {
      globalCells[spelling] = UnsafeMutableRawPointer(bitPattern: UInt(try jit.address(of: Self.globalName(spelling))))
    }
  }

  /// What a global holds now: a number, or an array's length and first elements.
  public func value(of global: GlobalSymbol, elements limit: Int = 8) -> GlobalValue? {
    guard let storage = globalCells[global.spelling].map(UnsafeRawPointer.init) else { return nil }
    if global.kind == .number { return .number(storage.load(as: Double.self)) }
    let count = Int(storage.load(fromByteOffset: 8, as: UInt64.self))
    let elements = storage.load(as: UnsafePointer<Double>?.self)
    let shown = elements.map { Array(UnsafeBufferPointer(start: $0, count: min(count, limit))) } ?? []
    return .array(count: count, first: shown)
  }

  /// The globals declared so far.
  public var globals: [GlobalSymbol] { declarations.globals.symbols }

  /// Compiles the input's definitions into one module kept for the session, then points
  /// each name's slot, and its tier entry, at its new code: now, or on the compiler thread.
  private func addDefinitions(of program: CheckedProgram, inBackground: Bool) throws {
    let definitions = program.bodies.filter { $0.function != nil }
    guard !definitions.isEmpty else { return }
    var symbolNames: [FunctionID: String] = [:]
    var newSlots: [String] = []
    for body in definitions {
      definitionCount += 1
      let spelling = program.functions[body.function!].spelling
      symbolNames[body.function!] = "\(spelling).\(definitionCount)"
      if !slots.contains(spelling) {
        slots.insert(spelling)
        newSlots.append(spelling)
      }
    }
    let module = Module(name: "definitions.\(definitionCount)", context: context)
    let level = optimization  // `:opt` may change it while the compiler thread works
    let compile = { [self] in
      try compileDefinitions(definitions, of: program, into: module, named: symbolNames, newSlots: Set(newSlots), level: level)
    }
    if inBackground, let tiers {
      let work = UncheckedWork(run: compile)
      tiers.compileInBackground { try work.run() }
    } else {
      try compile()
    }
  }

  private func compileDefinitions(
    _ definitions: [CheckedBody], of program: CheckedProgram, into module: Module, named symbolNames: [FunctionID: String],
    newSlots: Set<String>, level: OptimizationLevel
  ) throws {
    module.configure(for: jit.machine)
    let generator = makeGenerator(program, module, symbolNames)
    for body in definitions {
      let spelling = program.functions[body.function!].spelling
      if newSlots.contains(spelling) { generator.defineSlot(Self.slotName(spelling)) }
      generator.emitDefinition(body)
    }
    let unoptimized = module.text
    try finish(module, level: level)
    let ir = module.text
    for body in definitions {
      let spelling = program.functions[body.function!].spelling
      definitionIR[spelling] = ir
      definitionSourceIR[spelling] = (unoptimized, symbolNames[body.function!]!)
    }
    // After the optimiser and `:ir`'s text: they are the interpreter's, not the program's.
    if tiers != nil {
      emitTierEntries(definitions, of: program, generator, symbolNames)
      try module.verify()
    }
    try jit.add(module)
    for body in definitions {
      let function = body.function!
      let slot = try jit.address(of: Self.slotName(program.functions[function].spelling))
      let code = try jit.address(of: symbolNames[function]!)
      UnsafeMutablePointer<UInt64>(bitPattern: UInt(slot))!.pointee = code
    }
    // Only once every slot is set: the interpreter may call the code at once, and it calls
    // its neighbours through their slots.
    for body in definitions {
      let function = body.function!
      tiers?.setEntry(function, to: try jit.address(of: Self.tierEntryName(symbolNames[function]!)))
    }
  }

  private static func tierEntryName(_ definition: String) -> String { "tier.entry.\(definition)" }

  /// Emits, beside each definition, the entry the interpreter calls it through (`NativeEntry`).
  private func emitTierEntries(
    _ definitions: [CheckedBody], of program: CheckedProgram, _ generator: IRGenerator, _ symbolNames: [FunctionID: String]
  ) {
    for body in definitions {
      let function = body.function!
      generator.emitTierEntry(
        named: Self.tierEntryName(symbolNames[function]!), calling: generator.llvmFunction(function),
        parameters: program.functions[function].prototype.parameters.map(\.kind))
    }
  }

  /// Interprets the top-level expression at `index`, on a thread with the interpreter's
  /// stack. Returns whether it faulted.
  private func interpret(_ index: Int, of program: CheckedProgram) throws -> Bool {
    guard let tiers else { return true }
    interpretedExpressions += 1
    let cells = GlobalCells(borrowing: program.globals.symbols.compactMap { globalCells[$0.spelling] })
    let interpreter = Interpreter(
      program: program, host: RuntimeHost(protectsCalls: true), forSemantics: options.forSemantics, globals: cells)
    interpreter.compiledCode = tiers
    let clock = ContinuousClock()
    let start = clock.now
    defer { lastRunTime += clock.now - start }
    guard let error = Self.evaluateOnItsStack(index, in: interpreter) else { return false }
    if error != .reported { Self.reportError("\(error)\n") }
    return true
  }

  /// Evaluates the top-level expression at `index` on a thread with the interpreter's stack;
  /// the error that ended it, if any.
  static func evaluateOnItsStack(_ index: Int, in interpreter: Interpreter) -> InterpreterError? {
    // Ctrl-C must reach the interpreter's thread, whose protected calls the runtime's
    // handler may jump back to; this one waits with it blocked.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &interrupt, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let error = LargeStack.run(size: Interpreter.stackSize) { () -> InterpreterError? in
      pthread_sigmask(SIG_SETMASK, &previous, nil)
      ks_runtime_init()
      do throws(InterpreterError) {
        try interpreter.evaluateTopLevel(index, stackSize: Interpreter.stackSize)
        return nil
      } catch {
        return error
      }
    }
    ks_flush()
    _ = ks_take_interrupt()  // one that came too late to stop the expression is not kept
    return error
  }

  private static func reportError(_ message: String) {
    let bytes = Array(message.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }

  /// Compiles, runs and frees one top-level expression. Returns whether it faulted.
  private func run(_ body: CheckedBody, of program: CheckedProgram) throws -> Bool {
    expressionCount += 1
    let name = "__ks_expr.\(expressionCount)"
    let module = Module(name: name, context: context)
    module.configure(for: jit.machine)
    let generator = makeGenerator(program, module, [:])
    let value = generator.emitTopLevel(body, name: "\(name).value", isInternal: true)
    let printed = if case .topLevel = body.kind { true } else { false }
    generator.emitEntry(calling: [(value, printed)], name: name)
    // An expression runs once: unless it loops, optimising it costs more than it saves
    // (the functions it calls are optimised already). This keeps Enter-to-value short.
    try finish(module, optimizing: body.hasLoop)
    let tracker = jit.makeResourceTracker()
    try jit.add(module, tracker: tracker)
    let address = try jit.address(of: name)
    let entry = unsafeBitCast(UInt(address), to: (@convention(c) () -> Void).self)
    let clock = ContinuousClock()
    let start = clock.now
    let faulted = ks_run_protected(entry) != 0
    lastRunTime += clock.now - start
    try tracker.remove()
    return faulted
  }

  private func makeGenerator(
    _ program: CheckedProgram, _ module: Module, _ symbolNames: [FunctionID: String], defining globals: Set<String> = []
  ) -> IRGenerator {
    let unresolved = Set(
      program.functions.symbols.filter { $0.origin == .external && !HostSymbols.resolves($0.spelling) }.map(\.spelling))
    let names = IRGenerator.InteractiveNames(
      slot: Self.slotName, definition: { symbolNames[$0] ?? "unused" }, global: Self.globalName,
      definesGlobal: { globals.contains($0) })
    return IRGenerator(program: program, module: module, options: options, linking: .interactive(names), unresolved: unresolved)
  }

  private func finish(_ module: Module, optimizing: Bool = true, level: OptimizationLevel? = nil) throws {
    try module.verify()
    let level = level ?? optimization
    if optimizing && level != .none { try module.optimize(level: level, for: jit.machine) }
  }
}

/// What a global holds, as the REPL shows it.
public enum GlobalValue: Sendable, Equatable {
  case number(Double)
  /// An array: its length and its first elements.
  case array(count: Int, first: [Double])
}

/// Work handed to the compiler thread that the session does not touch meanwhile (the next
/// input waits for it).
private struct UncheckedWork: @unchecked Sendable {
  let run: () throws -> Void
}
