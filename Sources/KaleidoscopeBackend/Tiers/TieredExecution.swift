import CLLVM
import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime
import Synchronization

/// Tiered execution (`run --tier auto`): the interpreter runs the program at once, and LLVM
/// compiles at `-O2` what `TierPolicy` promotes, on a compiler thread of its own.
///
/// A promoted function, or loop, is compiled with every function it can call (private
/// copies of the small ones, `CallGraph.isCopied`, to inline; the others unless compiled
/// already), so compiled code only calls compiled code; the interpreter switches to it at a
/// function's next call, or at the top of a loop's next iteration (`CompiledCode`).
/// Compiled code reads and writes the interpreter's globals where they are (`GlobalCells`),
/// so both tiers see one state. The compiler thread compiles modules one at a time, in the
/// order they were asked for, so a module's calls to functions of earlier ones find them;
/// the interpreter's thread compiles beside it only modules that stand alone (calling and
/// exporting no function) while it waits for code (`compileAheadWhileWaiting`).
///
/// While the compiler has nothing to do, it compiles ahead loops that the program has not
/// reached yet (`CallGraph.loopsToCompileAhead`): the inner loops of nests that will run
/// long, then the loops outside any nest. A loop that starts after the compile finds its
/// code at its first iteration, where it would otherwise wait for a compile of its own
/// while the interpreter crawls through it.
///
/// Two threads use it: the counts are the interpreter's alone; they share the entry slots
/// (atomic), what was handed to the compiler (`requests`, locked, since compiling ahead
/// marks it too), the JIT and what `TierCompiler` keeps (locked) and `statistics` (locked).
public final class TieredExecution: CompiledCode, @unchecked Sendable {
  public let entries: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  public var reportInterval: Int { policy.hotCalls }
  /// Runtime errors in compiled code end the program, as they would in the interpreter.
  public var callsAreProtected: Bool { false }
  /// Often enough to see a loop become hot soon after it does, seldom enough to cost nothing.
  public var loopReportInterval: Int { min(1024, max(1, policy.hotIterations)) }
  public let statistics = TierStatistics()

  let program: CheckedProgram
  let options: CompileOptions
  let policy: TierPolicy
  let graph: CallGraph
  /// How many iterations make each loop hot (fewer, the more an iteration does).
  let costs: LoopCosts
  private let globals: GlobalCells
  /// Each loop's code, by its index among the tree's loops, once compiled.
  private let loopEntries: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  /// Iterations of each loop so far.
  private var loopIterations: [Int]
  /// Runs of each loop that ended in the interpreter, whether one has started, and whether
  /// the loop is known to be handed to the compiler (a copy of `requests.loops`, kept up to
  /// date when the interpreter asks, which then asks no more).
  private var loopRuns: [Int]
  private var loopStarted: [Bool]
  private var loopHandedOver: [Bool]
  /// Whether each handed-over loop gets code of its own (not only inside the loop around
  /// it), which the interpreter waits for (`awaitsCode`).
  private var loopAwaitsEntry: [Bool]
  /// Bumped at each hand-over, for the interpreter's loops to notice (`CompiledCode`).
  public let loopsHandedOver: UnsafeMutablePointer<Int>
  /// The loop index of the innermost loop around each loop in its body, found at the first
  /// entry into the loop's code: -1 for none, -2 not looked for yet.
  private var loopAround: [Int32]
  /// Functions whose code is on its way, which then runs their loops: their own entry
  /// (`requests.entries`, which only the interpreter's thread sets), or a private copy in
  /// the module of the loop that calls them. The interpreter's alone.
  private var codeOnItsWay: [Bool]
  /// The most iterations a loop's runs may average for it to count as running short.
  static let shortRun = 100
  /// What was handed to the compiler, by the interpreter or by compiling ahead.
  let requests: Mutex<CompileRequests>
  /// The target machine the interpreter's thread compiles with (`buildOnInterpreterThread`),
  /// made the first time; used only on that thread.
  var waitingMachine: TargetMachine?
  /// Compiles queued or in progress.
  private let pending = Atomic<Int>(0)
  /// The compiler thread's queue.
  private let compiler = DispatchQueue(label: "kaleidoscope.tiers.compiler")
  /// What the compiler thread knows and builds with (its JIT among it).
  let tierCompiler: TierCompiler
  /// What is known of the globals, shared by the interpreter and the compiler.
  private let globalFacts: ProgramGlobalFacts
  /// Set when the program has ended: queued compiles are then skipped.
  let finished = Atomic<Bool>(false)
  /// What the last run of this program handed to the compiler, and this run's (with a cache).
  private let history: LoopHistory?

  /// LLVM's passes recurse over the code; a compiler thread's stack must be generous.
  static let compilerStack = 64 << 20

  /// `cache`, if any, holds machine code from earlier runs and gets this run's.
  public init(
    program: CheckedProgram, globals: GlobalCells, options: CompileOptions, policy: TierPolicy,
    cache: MachineCodeCache? = nil
  ) {
    self.program = program
    self.options = options
    self.policy = policy
    self.globals = globals
    graph = CallGraph(program)
    costs = LoopCosts(graph, policy: policy)
    let functions = program.functions.symbols.count
    entries = .allocate(capacity: max(1, functions))
    entries.initialize(repeating: nil, count: max(1, functions))
    let loops = program.tree.loopCount
    requests = Mutex(CompileRequests(functions: functions, loops: loops))
    loopEntries = .allocate(capacity: max(1, loops))
    loopEntries.initialize(repeating: nil, count: max(1, loops))
    loopIterations = [Int](repeating: 0, count: loops)
    loopRuns = loopIterations
    loopStarted = [Bool](repeating: false, count: loops)
    loopHandedOver = loopStarted
    loopAwaitsEntry = loopStarted
    loopsHandedOver = .allocate(capacity: 1)
    loopsHandedOver.initialize(to: 0)
    loopAround = [Int32](repeating: -2, count: loops)
    codeOnItsWay = [Bool](repeating: false, count: functions)
    let unresolved = Set(
      program.functions.symbols.filter { $0.origin == .external && !HostSymbols.resolves($0.spelling) }.map(\.spelling))
    globalFacts = ProgramGlobalFacts(program: program, forSemantics: options.forSemantics)
    history = cache.map { LoopHistory(cache: $0, program: program, optimization: options.optimization, policy: policy) }
    tierCompiler = TierCompiler(
      program: program, options: options, globals: globals, graph: graph, unresolved: unresolved,
      statistics: statistics, cache: cache, globalFacts: globalFacts)
    // A program that may well need the compiler has it made, and the loops to compile
    // ahead found, while the interpreter starts.
    let reached = program.reachableBodies
    if reached.contains(where: { body in
      body.function.map { graph.longRunning[Int($0.index)] } ?? body.hasLoop
    }) {
      compiler.async { [self] in
        guard !finished.load(ordering: .acquiring) else { return }
        _ = try? LargeStack.run(size: Self.compilerStack) { try tierCompiler.host() }
        _ = aheadCandidates()
      }
    }
  }

  /// Every queued job holds `self`, so when this runs no compile is left to use the tables.
  deinit {
    entries.deallocate()
    loopEntries.deallocate()
    loopsHandedOver.deallocate()
  }

  /// Ends the compiler's work when the program has ended: skips what is queued and, if
  /// `waits`, waits for the compile in progress, so that no thread is inside LLVM when the
  /// process exits (its static destructors would pull LLVM's state from under it). A
  /// process that ends with `_exit`, running no destructors, need not wait for code that
  /// will never run.
  public func finish(waits: Bool = true) {
    finished.store(true, ordering: .releasing)
    history?.save()
    if waits { compiler.sync {} }
  }

  /// Waits until nothing is queued or compiling, compiles ahead included (for tests).
  func waitUntilIdle() {
    repeat { compiler.sync {} } while pending.load(ordering: .acquiring) > 0
  }

  /// Keeps the compiler thread busy, as a long compile would, until `release` is signalled
  /// (for tests).
  func occupyCompiler(until release: DispatchSemaphore) {
    pending.add(1, ordering: .relaxed)
    compiler.async { [self] in
      release.wait()
      pending.subtract(1, ordering: .releasing)
    }
  }

  // MARK: - CompiledCode

  public func called(_ function: FunctionID, times: Int, at site: CallSite?) {
    guard times >= policy.hotCalls else { return }
    // A small function that cannot run for long is not worth a module of its own, whose
    // compile would delay the loops queued after it: it is compiled into the module of
    // each caller that gets hot (`newModule`), where LLVM inlines it.
    guard !graph.isSmall[Int(function.index)] || graph.longRunning[Int(function.index)] else { return }
    let module = requests.withLock {
      requests -> (functions: [FunctionID], copies: Set<FunctionID>, loop: (node: ExprID, index: Int32)?)? in
      guard !requests.entries[Int(function.index)] else { return nil }
      // Looked for only once the function is known to have no entry: the reports of one
      // that has come every `reportInterval` calls.
      let around = site.flatMap(loopAround(call:))
      // The calls from a loop handed to the compiler end once its code runs.
      if let around, loopHandedOver[Int(around.index)] { return nil }
      if let site, let loop = around, loopIsWorthCompiling(around: site), !requests.loops[Int(loop.index)] {
        requests.loops[Int(loop.index)] = true
        codeOnItsWay[Int(function.index)] = true
        let (functions, copies) = newModule(calling: [function] + graph.callees(under: loop.node), in: &requests)
        // A large function, compiled for good there, gets its entry there too: the loop's
        // calls switch to it at once, before the loop's own switch at its next iteration.
        if !copies.contains(function) { requests.entries[Int(function.index)] = true }
        return (functions, copies, loop)
      }
      requests.entries[Int(function.index)] = true
      codeOnItsWay[Int(function.index)] = true
      let (functions, copies) = newModule(calling: [function], in: &requests)
      return (functions, copies, nil)
    }
    guard let module else { return }
    history?.record(.function(function.index, loop: module.loop?.index))
    var moduleEntries: [ModuleEntry] = []
    if module.loop == nil || !module.copies.contains(function) {
      moduleEntries.append(
        ModuleEntry(slot: entries + Int(function.index)) { generator in
          let name = "tier.entry." + self.program.functions[function].spelling
          generator.emitTierEntry(
            named: name, calling: generator.llvmFunction(function),
            parameters: self.program.functions[function].prototype.parameters.map(\.kind))
          return name
        })
    }
    if let (node, index) = module.loop, let site {
      handOver(loop: index)
      moduleEntries.append(loopEntry(node, of: site.body, forUsualFrames: true))
    }
    compile(
      module.functions, copies: module.copies, loops: module.loop == nil ? 0 : 1, entries: moduleEntries, cells: nil)
  }

  /// The innermost loop around a call, in the call's body, if any.
  private func loopAround(call site: CallSite) -> (node: ExprID, index: Int32)? {
    guard let loop = program.loop(around: site.node, in: program.bodies[site.body]),
      case .loop(let index) = program.tree[loop]
    else { return nil }
    return (loop, index)
  }

  /// Whether the loop a hot function's call at `site` is in (`loopAround`, not handed over)
  /// is compiled with the function: the calls from it then stay in machine code from its
  /// next iteration, where they would otherwise cross from the interpreter one by one until
  /// the loop got hot and compiled on its own (Mandelbrot's pixel loop, which calls
  /// `escape`, waited 7 ms for it). Not when the caller's code is on its way, which runs
  /// the loop from its next call.
  private func loopIsWorthCompiling(around site: CallSite) -> Bool {
    guard let caller = program.bodies[site.body].function else { return true }
    return !codeOnItsWay[Int(caller.index)]
  }

  public func loop(_ node: ExprID, of body: Int, iterations: Int) -> LoopEntry? {
    guard case .loop(let index) = program.tree[node] else { return nil }
    let slot = loopEntries + Int(index)
    if let entry = ks_tier_load_entry(slot) {
      creditLoop(around: node, index: index, of: body)
      return unsafeBitCast(entry, to: LoopEntry.self)
    }
    if iterations == 0, !loopStarted[Int(index)] {
      // Once per loop: a loop that has run in the interpreter is not compiled ahead; one
      // being compiled ahead is handed over already.
      loopStarted[Int(index)] = true
      let compilingAhead = requests.withLock { requests in
        requests.started[Int(index)] = true
        return requests.loops[Int(index)]
      }
      if compilingAhead { handOver(loop: index) }
    }
    if let inside = history?.nextLoopsInside(index), !loopHandedOver[Int(index)],
      program.bodies[body].function.map({ codeOnItsWay[Int($0.index)] }) != true
    {
      // The last run asked for it next, so its code is most likely in the cache.
      return ask(for: node, index: index, of: body, outer: nil, between: inside, asLastRun: true)
    }
    // Counted at the regular reports only, not at those of a loop awaiting its code.
    if iterations > 0, iterations % loopReportInterval == 0 { loopIterations[Int(index)] += loopReportInterval }
    guard !loopHandedOver[Int(index)], loopIterations[Int(index)] >= costs.hotIterations(ofLoop: node, index: index)
    else { return nil }
    let checked = program.bodies[body]
    // A function whose code is on its way runs its loops there from its next call: a
    // loop of it is compiled only for a long run in progress, not for many short ones.
    if let function = checked.function, codeOnItsWay[Int(function.index)], iterations < policy.hotIterations {
      return nil
    }
    // A loop hot from many short runs gains little from machine code of its own: entering
    // it costs about what a short run saves, and the loop around stays interpreted. The loop
    // around is compiled instead, with it inside, and entered at the top of its next one.
    let shortRuns = loopRuns[Int(index)] > 0 && loopIterations[Int(index)] / loopRuns[Int(index)] < Self.shortRun
    let (outer, between) = shortRuns ? loopToCompile(around: node, in: checked) : (nil, [])
    // With no loop around it in a function, the function's calls are its loop around: the
    // function is compiled once hot, with the loop that calls it (`called`), where a module
    // of the loop alone would hold that compile up.
    if shortRuns, outer == nil, checked.function != nil, iterations < policy.hotIterations { return nil }
    return ask(for: node, index: index, of: body, outer: outer, between: between)
  }

  /// Hands the loop at `node` to the compiler, or the loop `outer` around it, with the
  /// loops `between` them (which then run inside its module, never on their own); its
  /// code, if in place on return. `asLastRun` when the history asks, not its hotness.
  private func ask(
    for node: ExprID, index: Int32, of body: Int, outer: ExprID?, between: [Int32], asLastRun: Bool = false
  ) -> LoopEntry? {
    let checked = program.bodies[body]
    loopHandedOver[Int(index)] = true
    let module = requests.withLock { requests -> (target: ExprID, functions: [FunctionID], copies: Set<FunctionID>)? in
      guard !requests.loops[Int(index)] else { return nil }
      requests.loops[Int(index)] = true
      var target = node
      if let outer, case .loop(let outerIndex) = program.tree[outer] {
        guard !requests.loops[Int(outerIndex)] else { return nil }
        requests.loops[Int(outerIndex)] = true
        target = outer
      }
      for loop in between { requests.loops[Int(loop)] = true }
      let (functions, copies) = newModule(calling: graph.callees(under: target), in: &requests)
      return (target, functions, copies)
    }
    guard let module else { return nil }
    for loop in between { loopHandedOver[Int(loop)] = true }
    if case .loop(let target) = program.tree[module.target] {
      handOver(loop: target)
      history?.record(.loop(target, inside: (outer == nil ? [] : [index]) + between))
      if asLastRun { statistics.recordLoopAskedAsLastRun() }
    }
    // The code assumes the numbers fixed throughout the loop whole (`i < n` then counts in
    // integers): one compile serves every call whose arguments are.
    let ready = compileLoop(
      module.target, of: body, calling: module.functions, copies: module.copies, forUsualFrames: true,
      hereIfBusy: crawlsAlone(through: module.target, of: checked))
    if !ready { compileAheadWhileWaiting(upTo: costs.iterationCost(of: module.target)) }
    return ks_tier_load_entry(loopEntries + Int(index)).map { unsafeBitCast($0, to: LoopEntry.self) }
  }

  /// The loop to compile for a loop of short runs at `node`: the loop around it, or, when
  /// that loop's runs are known to be short too (counted to a literal bound), the first loop
  /// further out whose are not, which would otherwise get hot the same way once the first
  /// module's entries were counted, and compile those loops a second time (a 3×3 stencil's
  /// two inner loops, in the loop over an image's pixels); with the loops in between.
  private func loopToCompile(around node: ExprID, in body: CheckedBody) -> (ExprID?, [Int32]) {
    guard var outer = program.loop(around: node, in: body) else { return (nil, []) }
    var between: [Int32] = []
    while let trips = program.tripCount(ofLoop: outer, fixed: IRGenerator.FixedGlobals()), trips < Double(Self.shortRun),
      let next = program.loop(around: outer, in: body), case .loop(let index) = program.tree[outer]
    {
      between.append(index)
      outer = next
    }
    return (outer, between)
  }

  public func awaitsCode(forLoop node: ExprID) -> Bool {
    guard case .loop(let index) = program.tree[node] else { return false }
    return loopAwaitsEntry[Int(index)] && ks_tier_load_entry(loopEntries + Int(index)) == nil
  }

  /// Marks a loop handed to the compiler, its own code on the way.
  private func handOver(loop index: Int32) {
    loopHandedOver[Int(index)] = true
    loopAwaitsEntry[Int(index)] = true
    loopsHandedOver.pointee += 1
  }

  public func loopEnded(_ node: ExprID, iterations: Int) {
    guard case .loop(let index) = program.tree[node] else { return }
    loopIterations[Int(index)] += iterations % loopReportInterval
    loopRuns[Int(index)] += 1
  }

  public func keepsIntegers(in global: GlobalID) -> Bool {
    globalFacts.facts.integerArrays[Int(global.index)]
  }

  public func starting(topLevel body: Int) {
    requests.withLock { $0.topLevel = body }
  }

  /// Counts an entry into the code of the loop at `node` as `shortRun` iterations of the
  /// loop around it, which is then the next worth compiling: each of its iterations runs
  /// that code, whose loop got hot from long runs (or was known to have them), and crosses
  /// from the interpreter to do so. It gets hot after about 41 such iterations, where
  /// 4,096 would leave a nest that is half machine code crossing over for long.
  private func creditLoop(around node: ExprID, index: Int32, of body: Int) {
    if loopAround[Int(index)] == -2 {
      let outer = program.loop(around: node, in: program.bodies[body]).map { program.tree[$0] }
      if case .loop(let outerIndex) = outer { loopAround[Int(index)] = outerIndex } else { loopAround[Int(index)] = -1 }
    }
    let outer = Int(loopAround[Int(index)])
    if outer >= 0, !loopHandedOver[outer] { loopIterations[outer] += Self.shortRun }
  }

  /// The loop's code assumed a parameter whole that is not: the interpreter goes on while
  /// code that assumes nothing is compiled in the background (what it calls is compiled
  /// already; the small functions come again as private copies).
  public func loopMissed(_ node: ExprID, of body: Int) {
    guard case .loop(let index) = program.tree[node] else { return }
    ks_tier_store_entry(loopEntries + Int(index), nil)
    history?.record(.general(index))
    let (functions, copies) = requests.withLock { newModule(calling: graph.callees(under: node), in: &$0) }
    compileLoop(node, of: body, calling: functions, copies: copies, forUsualFrames: false)
  }

  /// `cells`, when given, are the globals' cells to compile with (compiling ahead, on the
  /// compiler thread); otherwise they are read now, on the interpreter's thread. With
  /// `hereIfBusy`, the interpreter's thread compiles it if the compiler thread is busy. True
  /// when the code is in place on return.
  @discardableResult
  func compileLoop(
    _ node: ExprID, of body: Int, calling functions: [FunctionID], copies: Set<FunctionID>,
    forUsualFrames: Bool, cells: GlobalSnapshot? = nil, hereIfBusy: Bool = false
  ) -> Bool {
    compile(
      functions, copies: copies, loops: 1,
      entries: [loopEntry(node, of: body, forUsualFrames: forUsualFrames)], cells: cells, hereIfBusy: hereIfBusy)
  }

  /// Whether the interpreter, running the loop at `node`, crawls through all of it (no loop
  /// inside has code yet, which it would otherwise run at full speed) and the loop's module
  /// stands alone (it calls only functions it copies, so it waits for no other module to
  /// link): such a loop is not left to wait behind the compiler thread's work.
  private func crawlsAlone(through node: ExprID, of body: CheckedBody) -> Bool {
    let callees = graph.closure(of: graph.callees(under: node), excluding: { _ in false })
    guard callees.allSatisfy({ graph.isCopied[Int($0.index)] }) else { return false }
    return !body.loops.contains { inner in
      guard inner != node, case .loop(let index) = program.tree[inner] else { return false }
      return program.tree.contains(inner, under: node) && ks_tier_load_entry(loopEntries + Int(index)) != nil
    }
  }

  /// The continuation of the loop at `node` as an entry of a module. A loop may get code
  /// twice, the second time general (`loopMissed`), into the JIT's one namespace: each has
  /// its own name.
  func loopEntry(_ node: ExprID, of body: Int, forUsualFrames: Bool) -> ModuleEntry {
    guard case .loop(let index) = program.tree[node] else { preconditionFailure("not a loop") }
    let name = "tier.loop.\(index)" + (forUsualFrames ? "" : ".general")
    let code = CompiledLoop(symbol: name, body: body, mayDecline: forUsualFrames)
    return ModuleEntry(slot: loopEntries + Int(index), loop: (index, code)) { [program] generator in
      generator.emitLoopContinuation(named: name, loop: node, of: program.bodies[body], forUsualFrames: forUsualFrames)
      return name
    }
  }

  /// The functions of a new module whose code calls `roots`: every function they can call
  /// but the large or recursive ones compiled already, which it calls where they are. The
  /// small ones that are not recursive (`CallGraph.isCopied`) are private to the module and
  /// not marked requested: LLVM inlines them and drops what is left, where exported they
  /// stayed whole beside their inlined copies (Life's neighbour count, eight inlined reads
  /// of a cell, was compiled a second time for nothing). The others are marked requested,
  /// compiled for good (n-body's `advance`, private, was inlined into its loop, which then
  /// ran slower).
  func newModule(
    calling roots: [FunctionID], in requests: inout CompileRequests
  ) -> (functions: [FunctionID], copies: Set<FunctionID>) {
    let functions = moduleFunctions(calling: roots, requested: requests.functions)
    let copies = Set(functions.filter { graph.isCopied[Int($0.index)] })
    for member in functions where !copies.contains(member) { requests.functions[Int(member.index)] = true }
    return (functions, copies)
  }

  /// What a module whose code calls `roots` compiles: every function they can call but the
  /// large or recursive ones `requested` already, which it calls where they are.
  func moduleFunctions(calling roots: [FunctionID], requested: [Bool]) -> [FunctionID] {
    graph.closure(of: roots) { requested[Int($0.index)] && !graph.isCopied[Int($0.index)] }
  }

  /// Has `functions` and `entries` compiled into one module (now and waiting, or in the
  /// background, as the policy says), and puts each entry's address in its slot when ready;
  /// true when that is done on return.
  ///
  /// A loop the interpreter crawls through, asked for while the compiler thread is busy
  /// (compiling ahead, most often), would wait in the queue at a thirtieth to a
  /// two-hundredth of its code's speed: with `hereIfBusy` the interpreter's thread
  /// compiles it instead (an insertion sort's outer loop waited behind the loop after it,
  /// compiled ahead, for longer than its own compile takes).
  @discardableResult
  private func compile(
    _ functions: [FunctionID], copies: Set<FunctionID>, loops: Int, entries: [ModuleEntry], cells given: GlobalSnapshot?,
    hereIfBusy: Bool = false
  ) -> Bool {
    // Read here, on the interpreter's thread: a declaration that has run by now is over.
    let cells = given ?? GlobalSnapshot(cells: globals.snapshot())
    if given == nil { requests.withLock { $0.cells = cells } }
    if hereIfBusy, !policy.waits, pending.load(ordering: .acquiring) > 0,
      buildOnInterpreterThread(functions, copies: copies, loops: loops, ahead: false, cells: cells, entries: entries)
    {
      return true
    }
    pending.add(1, ordering: .relaxed)
    let work: @Sendable () -> Void = { [self] in
      defer {
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { compileAheadIfIdle() }
      }
      guard !finished.load(ordering: .acquiring) else { return }
      let addresses = LargeStack.run(size: Self.compilerStack) {
        tierCompiler.build(
          functions, copies: copies, loops: loops, ahead: given != nil, globalsThen: cells.cells, entries: entries)
      }
      // Without addresses, the code stays interpreted.
      for (entry, address) in zip(entries, addresses ?? []) { ks_tier_store_entry(entry.slot, address) }
    }
    if policy.waits { compiler.sync(execute: work) } else { compiler.async(execute: work) }
    return policy.waits
  }
}
