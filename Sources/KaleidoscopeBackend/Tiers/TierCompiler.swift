import CLLVM
import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import Synchronization

/// The compiling side of tiered execution: the JIT, what it knows of the globals, and the
/// modules it builds for `TieredExecution`. The compiler thread builds with the JIT's own
/// target machine; the interpreter's thread, while it waits for code, may build too, with a
/// machine of its own (`build(machine:)`): a target machine serves one thread at a time,
/// while ORC takes objects and answers lookups from any. What both share is locked.
///
/// A module whose object is in the machine-code cache (`MachineCodeCache`) from an
/// earlier run is linked from there, skipping LLVM's optimiser and code generator, which
/// take nearly all of a compile; one that is not is compiled and filed there.
final class TierCompiler: @unchecked Sendable {
  private let program: CheckedProgram
  private let options: CompileOptions
  private let globals: GlobalCells
  private let graph: CallGraph
  private let unresolved: Set<String>
  private let statistics: TierStatistics
  private let cache: MachineCodeCache?
  /// What is known of the globals, worked out once for every module of the run rather than
  /// once per module, and shared with the interpreter.
  private let globalFacts: ProgramGlobalFacts
  /// What the threads that build share.
  private let shared = Mutex(Shared())

  /// The JIT and what the modules built so far leave to the next.
  private struct Shared {
    var jit: JIT?
    /// The start of every module's key in the cache, made with the JIT (`keyHeader`).
    var keyHeader: [UInt8] = []
    /// The literal initialisers of the number globals that nothing assigns, made when first
    /// needed: once a declaration has run, its global holds that value for good.
    var fixedCandidates: [Int32: Double]?
    /// The loops whose code a module has linked, by loop index: later modules call it.
    var compiledLoops: [Int32: CompiledLoop] = [:]
  }

  init(
    program: CheckedProgram, options: CompileOptions, globals: GlobalCells, graph: CallGraph, unresolved: Set<String>,
    statistics: TierStatistics, cache: MachineCodeCache?, globalFacts: ProgramGlobalFacts
  ) {
    self.globalFacts = globalFacts
    self.program = program
    self.options = options
    self.globals = globals
    self.graph = graph
    self.unresolved = unresolved
    self.statistics = statistics
    self.cache = cache
  }

  /// The JIT, made with the globals' cells defined the first time.
  func host() throws -> JIT {
    try shared.withLock { shared throws -> JIT in
      if let jit = shared.jit { return jit }
      let made = try JIT(machine: try JIT.machine(optimization: options.optimization))
      try made.define(absolute: IRGenerator.tieredGlobalSymbols(of: program, at: globals.address(of:)))
      if cache != nil {
        shared.keyHeader = MachineCodeCache.keyHeader(for: made.machine, optimization: options.optimization)
      }
      shared.jit = made
      return made
    }
  }

  /// The globals that can no longer change, from their cells when the compile was asked
  /// for. A file's global is declared once, and until then holds 0 (an array: an empty
  /// one). An array's `{ elements, count }` is never written after its declaration, so one
  /// with elements is fixed (one of length 0 is left alone). A number that nothing assigns
  /// holds its literal initialiser after its declaration (0 without one), so if it holds
  /// it, it is fixed. The module has the numbers and the arrays' counts as constants, as
  /// LLVM has them in a whole program, where it sees the one store, and reads an array's
  /// elements from its cell as memory that never changes (`IRGenerator.loadArray(of:)`).
  func fixedGlobals(_ cells: [(UInt64, UInt64)]) -> IRGenerator.FixedGlobals {
    var fixed = IRGenerator.FixedGlobals()
    let candidates = shared.withLock { shared in
      if shared.fixedCandidates == nil {
        let stable = globalFacts.facts.stable
        shared.fixedCandidates = WholeIndexAnalysis.literalInitializers(of: program).filter { stable[Int($0.key)] != nil }
      }
      return shared.fixedCandidates!
    }
    for (index, literal) in candidates where cells[Int(index)].0 == literal.bitPattern {
      fixed.numbers[index] = literal
    }
    for (index, symbol) in program.globals.symbols.enumerated() where symbol.kind == .array && cells[index].1 != 0 {
      fixed.arrays[Int32(index)] = cells[index].1
    }
    return fixed
  }

  /// Compiles `functions` (`copies` of them private; and `loops` loops) into one module with
  /// the entries that `entries` emit (each returning its name); their addresses, or nil if
  /// LLVM failed. `machine`, if given, compiles instead of the JIT's (on another thread).
  func build(
    _ functions: [FunctionID], copies: Set<FunctionID>, loops: Int, ahead: Bool, globalsThen: [(UInt64, UInt64)],
    entries: [ModuleEntry], machine: TargetMachine? = nil
  ) -> [UnsafeMutableRawPointer]? {
    let start = DispatchTime.now().uptimeNanoseconds
    var cached = false
    defer {
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      statistics.recordCompile(
        functions: functions.count - copies.count, copies: copies.count, loops: loops, ahead: ahead,
        onInterpreterThread: machine != nil, cached: cached, nanoseconds: elapsed)
    }
    do {
      let jit = try host()
      let machine = machine ?? jit.machine
      let module = Module(name: "tier", context: Context())
      module.configure(for: machine)
      let fixed = fixedGlobals(globalsThen)
      let (compiledLoops, keyHeader) = shared.withLock { ($0.compiledLoops, $0.keyHeader) }
      let generator = IRGenerator(
        program: program, module: module, options: options, linking: .tiered(copies: copies, fixed: fixed, loops: compiledLoops),
        unresolved: unresolved, globalFacts: globalFacts.facts)
      let names = Self.emit(functions.map { graph.definitions[Int($0.index)]! }, entries: entries, with: generator)
      try module.verify()
      let key = cache.map { _ in MachineCodeCache.key(of: module, header: keyHeader) }
      if let key, let addresses = linkCached(key, names: names, in: jit) {
        cached = true
        recordLoops(of: entries)
        return addresses
      }
      if options.optimization != .none { try module.optimize(level: options.optimization, for: machine) }
      let object = try ObjectEmitter.object(of: module, machine: machine)
      if let cache, let key {
        cache.store(UnsafeRawBufferPointer(start: LLVMGetBufferStart(object), count: LLVMGetBufferSize(object)), for: key)
      }
      try jit.add(object: object)
      let linked = try addresses(of: names, in: jit)
      recordLoops(of: entries)
      return linked
    } catch {
      statistics.recordFailure("\(error)")
      return nil
    }
  }

  /// Emits a module's `definitions`, its `entries` (each returning its name) and the fallbacks
  /// its loops call. A private copy called from one place is then marked to be inlined before
  /// the optimiser simplifies it on its own, as in a whole program (`inlineSoleCallees`):
  /// Mandelbrot's `escape`, loop and all, was otherwise simplified twice.
  static func emit(_ definitions: [CheckedBody], entries: [ModuleEntry], with generator: IRGenerator) -> [String] {
    for definition in definitions { generator.emitDefinition(definition) }
    let names = entries.map { $0.emit(generator) }
    generator.emitLoopFallbacks()
    generator.inlineSoleCallees()
    return names
  }

  /// The entries' addresses from the object cached under `key`, or nil (the object, if
  /// any, removed again) when there is none or it does not link.
  private func linkCached(_ key: [UInt8], names: [String], in jit: JIT) -> [UnsafeMutableRawPointer]? {
    guard let cache, let object = cache.object(for: key) else { return nil }
    let tracker = jit.makeResourceTracker()
    let buffer = object.withUnsafeBytes { bytes in
      LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, "cached")!
    }
    do {
      try jit.add(object: buffer, tracker: tracker)
      return try addresses(of: names, in: jit)
    } catch {
      try? tracker.remove()
      return nil
    }
  }

  /// Records the loop continuations among a linked module's entries, for later modules to
  /// call; a loop's general code replaces code made for usual frames.
  private func recordLoops(of entries: [ModuleEntry]) {
    shared.withLock { shared in
      for case (let index, let code)? in entries.map(\.loop) { shared.compiledLoops[index] = code }
    }
  }

  private func addresses(of names: [String], in jit: JIT) throws -> [UnsafeMutableRawPointer] {
    try names.map { UnsafeMutableRawPointer(bitPattern: UInt(try jit.address(of: $0)))! }
  }
}
