import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// A loop to compile ahead: its body, the functions its module holds (`copies` of them
/// private), and the globals' cells to compile with.
struct AheadJob {
  let loop: ExprID
  let body: Int
  let functions: [FunctionID]
  let copies: Set<FunctionID>
  let cells: GlobalSnapshot
}

/// Which loops a scan for one to compile ahead may take: any (the compiler thread's), or
/// only inner loops of nests whose iteration costs at most so much (the interpreter's).
enum AheadScan {
  case any
  case innerUpTo(Int)
}

/// Compiling ahead: loops the program has not reached yet, compiled by the compiler thread
/// when it has nothing else to do, and by the interpreter's thread while it waits for code.
extension TieredExecution {
  /// The loops to compile ahead, found the first time they are asked for.
  func aheadCandidates() -> [CallGraph.AheadCandidate] {
    if let found = requests.withLock({ $0.aheadOfTime }) { return found }
    let found = graph.loopsToCompileAhead()
    requests.withLock { $0.aheadOfTime = found }
    return found
  }

  /// On the compiler thread, with nothing queued: compiles the next loop to compile ahead
  /// that nothing has asked for yet, with the globals as they were at the last request
  /// (a global fixed then is fixed for good; one declared since is read from its cell).
  func compileAheadIfIdle() {
    guard !policy.waits, !finished.load(ordering: .acquiring) else { return }
    let candidates = aheadCandidates()
    guard let job = requests.withLock({ nextAhead(of: candidates, in: &$0, scan: .any) }) else { return }
    compileLoop(
      job.loop, of: job.body, calling: job.functions, copies: job.copies, forUsualFrames: true, cells: job.cells)
  }

  /// On the interpreter's thread, which has just handed the compiler thread the loop it is
  /// running, an iteration of which costs `cost` (`LoopCosts`): compiles there the next inner
  /// loop of a nest to compile ahead. Until that code lands the interpreter would crawl at a
  /// thirtieth to a two-hundredth of its speed, so its core is better spent compiling the
  /// next nest's inner loop, which the compiler thread would otherwise compile only after
  /// the request (spectral-norm's second product waited about 20 ms in the interpreter for
  /// it). Only an inner loop that costs no more, whose module is then about as small as the
  /// request's, so that the interpreter is seldom still compiling when its own code lands.
  func compileAheadWhileWaiting(upTo cost: Int) {
    guard !policy.waits,
      let job = requests.withLock({ requests in
        requests.aheadOfTime.flatMap { nextAhead(of: $0, in: &requests, scan: .innerUpTo(cost)) }
      })
    else { return }
    let entries = [loopEntry(job.loop, of: job.body, forUsualFrames: true)]
    if !buildOnInterpreterThread(
      job.functions, copies: job.copies, loops: 1, ahead: true, cells: job.cells, entries: entries)
    {
      compileLoop(
        job.loop, of: job.body, calling: job.functions, copies: job.copies, forUsualFrames: true, cells: job.cells)
    }
  }

  /// Builds a module on the interpreter's thread, with a target machine of its own (made the
  /// first time), and puts each entry's address in its slot; false if there is no machine.
  func buildOnInterpreterThread(
    _ functions: [FunctionID], copies: Set<FunctionID>, loops: Int, ahead: Bool, cells: GlobalSnapshot,
    entries: [ModuleEntry]
  ) -> Bool {
    if waitingMachine == nil { waitingMachine = try? JIT.machine(optimization: options.optimization) }
    guard let machine = waitingMachine else { return false }
    let addresses = LargeStack.run(size: Self.compilerStack) {
      tierCompiler.build(
        functions, copies: copies, loops: loops, ahead: ahead, globalsThen: cells.cells, entries: entries,
        machine: machine)
    }
    for (entry, address) in zip(entries, addresses ?? []) { ks_tier_store_entry(entry.slot, address) }
    return true
  }

  /// The next of `candidates` worth compiling ahead, marked requested; nil if none is
  /// left. The compiler thread's scan (`any`) moves on past what it skips; the interpreter's
  /// looks only at the inner loops of nests, which come first, and moves nothing on.
  private func nextAhead(
    of candidates: [CallGraph.AheadCandidate], in requests: inout CompileRequests, scan: AheadScan
  ) -> AheadJob? {
    guard let cells = requests.cells else { return nil }
    // Made once, at the first loop looked at.
    var fixed: IRGenerator.FixedGlobals?
    var position = requests.ahead
    while position < candidates.count {
      let candidate = candidates[position]
      position += 1
      let node = candidate.loop
      if case .innerUpTo(let cost) = scan {
        if !candidate.nested { break }
        if costs.iterationCost(of: node) > cost { continue }
      } else {
        requests.ahead = position
      }
      // What only top-level bodies that have run reach is over.
      guard candidate.topLevel >= requests.topLevel, case .loop(let index) = program.tree[node],
        !requests.loops[Int(index)], !requests.started[Int(index)]
      else { continue }
      if fixed == nil { fixed = tierCompiler.fixedGlobals(cells.cells) }
      let trips = program.tripCount(ofLoop: node, fixed: fixed!)
      // An inner loop of short runs gets the loop around it compiled when hot (`shortRun`);
      // it is compiled ahead only if each run is known to be long.
      if candidate.nested, (trips ?? 0) < Double(Self.shortRun) { continue }
      // A loop outside any nest whose runs are known to be too short to get hot alone is
      // left to the interpreter: its module would hold up the requests made while it
      // compiles (a Gaussian elimination's final sum, run once, held up the loop the
      // interpreter was waiting in).
      if !candidate.nested, let trips, trips < Double(policy.hotIterations) { continue }
      let checked = program.bodies[candidate.body]
      // A function with code of its own runs its loops there.
      if let function = checked.function, requests.entries[Int(function.index)] { continue }
      // A loop that calls code able to run long would bring it all into its module, a
      // long compile that may hold up the next request: that code is left to get hot.
      let callees = graph.callees(under: node)
      let reached = moduleFunctions(calling: callees, requested: requests.functions)
      if reached.contains(where: { graph.longRunning[Int($0.index)] }) { continue }
      // The interpreter's thread compiles beside the compiler thread, so its module must
      // stand alone: only private copies, calling no code of a module still on its way and
      // exporting none that a module compiled meanwhile could call before it lands.
      if case .innerUpTo = scan,
        !graph.closure(of: callees, excluding: { _ in false }).allSatisfy({ graph.isCopied[Int($0.index)] })
      {
        continue
      }
      requests.loops[Int(index)] = true
      let (functions, copies) = newModule(calling: callees, in: &requests)
      return AheadJob(loop: node, body: candidate.body, functions: functions, copies: copies, cells: cells)
    }
    return nil
  }
}
