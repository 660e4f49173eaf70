import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// Which code tiered execution hands to the compiler, driven as the interpreter drives it:
/// a loop reports at the start of a run and every `loopReportInterval` iterations, and
/// tells the rest when the run ends. The compiles wait (`TierPolicy.waits`), so each
/// decision shows at once in the statistics; those of compiling ahead, which happens only
/// in the background, are waited for (`waitUntilIdle`).
@Suite("Tier policy")
struct TierPolicyTests {
  /// The checked `source`, and tiers for it that make a loop hot at 8 iterations (unless
  /// told otherwise); with
  /// `declaring`, after its declarations of globals have run.
  static func tiers(
    of source: String, hotCalls: Int, hotIterations: Int = 8, waits: Bool = true, declaring: Bool = false
  ) throws -> (CheckedProgram, TieredExecution) {
    let checked = Frontend.check(SourceFile(name: "policy.ks", text: source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let interpreter = Interpreter(program: checked.program, host: RuntimeHost())
    for (index, body) in checked.program.bodies.enumerated() where declaring {
      guard case .globalDeclaration = body.kind else { continue }
      try LargeStack.run(size: Interpreter.stackSize) { () throws(InterpreterError) in
        try interpreter.evaluateTopLevel(index, stackSize: Interpreter.stackSize)
      }
    }
    let tiers = TieredExecution(
      program: checked.program, globals: interpreter.globals, options: CompileOptions(),
      policy: TierPolicy(hotCalls: hotCalls, hotIterations: hotIterations, waits: waits))
    return (checked.program, tiers)
  }

  static let driver = """
    def binary : 1 (x y) y
    var g = 0
    def work(x) for k = 0, k < x in g = g + k
    def drive(n) for i = 0, i < n in work(i)
    0
    """

  /// `driver`'s `work` and `drive`, and the call of `work` in `drive`'s loop.
  static func driverCall(in program: CheckedProgram) throws -> (work: FunctionID, drive: FunctionID, site: CallSite) {
    let work = try #require(program.function(named: "work"))
    let drive = try #require(program.function(named: "drive"))
    let body = try #require(program.bodies.firstIndex { $0.function == drive })
    let call = try #require(
      (0..<Int32(program.tree.exprCount)).map(ExprID.init(index:)).first { id in
        if case .call = program.tree[id] { return program.callee(of: id) == work }
        return false
      })
    return (work, drive, CallSite(node: call, body: body))
  }

  /// A function hot from calls in a loop is compiled with that loop, which then goes on in
  /// machine code at its next iteration; not when the call site is not known, nor when the
  /// caller's own code is on its way (it runs the loop from its next call).
  @Test(arguments: ["site", "no site", "caller on its way"])
  func aFunctionHotInALoopIsCompiledWithTheLoop(case name: String) throws {
    let (program, tiers) = try Self.tiers(of: Self.driver, hotCalls: 1)
    defer { tiers.finish() }
    let (work, drive, site) = try Self.driverCall(in: program)
    if name == "caller on its way" { tiers.called(drive, times: 1, at: nil) }
    let before = tiers.statistics.figures.loops
    tiers.called(work, times: 1, at: name == "no site" ? nil : site)
    let body = site.body
    let withLoop = name == "site"
    #expect(tiers.statistics.figures.loops - before == (withLoop ? 1 : 0))
    #expect((tiers.loop(program.bodies[body].loops[0], of: body, iterations: 0) != nil) == withLoop)
  }

  /// `driver` with `work` made large (`CallGraph.isSmall` no longer holds).
  static let largeDriver = """
    def binary : 1 (x y) y
    var g = 0
    def work(x) (for k = 0, k < x in g = g + k) : \((1...90).map { "x * \($0)" }.joined(separator: " + "))
    def drive(n) for i = 0, i < n in work(i)
    def outside(x) (for j = 0, j < x in g = g + j) : work(x)
    0
    """

  /// A function hot in a loop goes into the loop's module. A small one as a private copy
  /// (LLVM inlines it there, and drops the rest): its own entry comes when the interpreter
  /// still calls it often, but not from that loop, whose calls end once its code runs. A
  /// large one is compiled for good, with its entry: the loop's calls switch to it at once.
  @Test(arguments: [false, true])
  func aFunctionHotInALoopGoesIntoTheLoopsModule(large: Bool) throws {
    let (program, tiers) = try Self.tiers(of: large ? Self.largeDriver : Self.driver, hotCalls: 1)
    defer { tiers.finish() }
    let (work, _, site) = try Self.driverCall(in: program)
    tiers.called(work, times: 1, at: site)
    #expect(tiers.statistics.figures.loops == 1)
    #expect(tiers.statistics.figures.functions == (large ? 1 : 0))
    #expect((tiers.entries[Int(work.index)] != nil) == large)
    guard !large else { return }
    tiers.called(work, times: 2, at: site)
    #expect(tiers.statistics.figures.functions == 0)
    tiers.called(work, times: 3, at: nil)
    // A module of its own, with its entry; small, it is a private copy there too.
    #expect(tiers.statistics.figures.modules == 2)
    #expect(tiers.statistics.figures.functions == 0)
    #expect(tiers.entries[Int(work.index)] != nil)
  }

  /// A large function compiled as another's callee has no entry; it gets one when the
  /// interpreter calls it often.
  @Test func aCalleeGetsAnEntryWhenTheInterpreterCallsItOften() throws {
    let (program, tiers) = try Self.tiers(of: Self.largeDriver, hotCalls: 1)
    defer { tiers.finish() }
    let outside = try #require(program.function(named: "outside"))
    let work = try #require(program.function(named: "work"))
    tiers.called(outside, times: 1, at: nil)
    #expect(tiers.entries[Int(work.index)] == nil)
    tiers.called(work, times: 1, at: nil)
    #expect(tiers.entries[Int(work.index)] != nil)
  }

  static let phases = """
    def binary : 1 (x y) y
    var g = 0
    def long(n) for k = 0, k < n in g = g + k
    def short(x) x + 1
    for i = 0, i < 100 in g = g + i
    for j = 0, j < 100 in g = short(g)
    for m = 0, m < 100 in g = long(m)
    """

  /// Once the compiler has nothing to do, it compiles the loops outside any nest that the
  /// program has not reached, in the order it reaches them: a loop that starts later finds its code at
  /// its first iteration. Loops of top-level code that has run are passed over, and so is
  /// a loop calling code that can run long (`long` gets its own, as a loop of its own).
  @Test(arguments: [false, true])
  func loopsTheProgramHasNotReachedAreCompiledAhead(pastTheSecond: Bool) throws {
    let (program, tiers) = try Self.tiers(of: Self.phases, hotCalls: 1000, waits: false)
    defer { tiers.finish() }
    let topLevel = program.bodies.indices.filter { program.bodies[$0].function == nil && program.bodies[$0].hasLoop }
    try #require(topLevel.count == 3)
    let long = try #require(program.bodies.firstIndex { $0.function != nil && $0.hasLoop })
    let loop = { (body: Int) in program.bodies[body].loops[0] }
    tiers.starting(topLevel: topLevel[0])
    #expect(tiers.loop(loop(topLevel[0]), of: topLevel[0], iterations: 0) == nil)
    if pastTheSecond { tiers.starting(topLevel: topLevel[2]) }
    // Hot within its run: compiled now, and then the rest ahead.
    _ = tiers.loop(loop(topLevel[0]), of: topLevel[0], iterations: 8)
    tiers.waitUntilIdle()
    #expect(tiers.statistics.figures.modulesAhead == (pastTheSecond ? 1 : 2))
    #expect((tiers.loop(loop(topLevel[1]), of: topLevel[1], iterations: 0) != nil) == !pastTheSecond)
    #expect(tiers.loop(loop(topLevel[2]), of: topLevel[2], iterations: 0) == nil)
    #expect(tiers.loop(loop(long), of: long, iterations: 0) != nil)
  }

  /// Tiers for `source` (its globals declared) once its first top-level loop got hot, was
  /// compiled, and the compiler went on to compile ahead all it would.
  static func afterCompilingAhead(_ source: String) throws -> (CheckedProgram, TieredExecution) {
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1000, waits: false, declaring: true)
    let first = try #require(program.bodies.firstIndex { $0.function == nil && $0.hasLoop })
    tiers.starting(topLevel: first)
    _ = tiers.loop(program.bodies[first].loops[0], of: first, iterations: 8)
    tiers.waitUntilIdle()
    return (program, tiers)
  }

  static let singles = """
    def binary : 1 (x y) y
    var g = 0, n = 7, count = 50
    for s = 0, s < 100 in g = g + s
    def short() for i = 0, i < n in g = g + i
    def long() for i = 0, i < count in g = g + i
    def open(m) for i = 0, i < m in g = g + i
    short() : long() : open(5)
    """

  /// A loop outside any nest is compiled ahead unless each of its runs is known to be
  /// shorter than what makes a loop hot (here 8 iterations): such a loop never gets hot in
  /// one run, and its module would hold up the requests made while it compiles.
  @Test func aLoopKnownToRunShortIsNotCompiledAhead() throws {
    let (program, tiers) = try Self.afterCompilingAhead(Self.singles)
    defer { tiers.finish() }
    #expect(tiers.statistics.figures.modulesAhead == 2)
    for (name, ahead) in [("short", false), ("long", true), ("open", true)] {
      let body = try #require(program.bodyIndex(ofFunction: name))
      #expect((tiers.loop(program.bodies[body].loops[0], of: body, iterations: 0) != nil) == ahead, "\(name)")
    }
  }

  static let nests = """
    def binary : 1 (x y) y
    var g = 0, n = 200, a[300]
    for s = 0, s < 100 in g = g + s
    def fixed() for i = 0, i < 3 in for j = 0, j < n in g = g + j
    def length() for i = 0, i < 3 in for j = 0, j < len(a) in g = g + j
    def literal() for i = 0, i < 3 in for j = 0, j < 150 in g = g + j
    def short() for i = 0, i < 3 in for j = 0, j < 5 in g = g + j
    def open(m) for i = 0, i < 3 in for j = 0, j < m in g = g + j
    fixed() : length() : literal() : short() : open(200)
    """

  /// The inner loop of a nest is compiled ahead when each of its runs is known to be long
  /// (to a literal, a fixed global or an array's length); not one of short runs, whose
  /// loop around gets compiled when hot, nor one whose bound is unknown; never the loop
  /// around, whose module would take far longer.
  @Test func innerLoopsOfLongRunsAreCompiledAhead() throws {
    let (program, tiers) = try Self.afterCompilingAhead(Self.nests)
    defer { tiers.finish() }
    let loops = { (name: String) in try Self.nest(of: name, in: program) }
    #expect(tiers.statistics.figures.modulesAhead == 3)
    for (name, ahead) in [("fixed", true), ("length", true), ("literal", true), ("short", false), ("open", false)] {
      let (outer, inner, body) = try loops(name)
      #expect((tiers.loop(inner, of: body, iterations: 0) != nil) == ahead, "\(name)")
      #expect(tiers.loop(outer, of: body, iterations: 0) == nil, "\(name)")
    }
  }

  /// `nests` with inner loops costlier per iteration than the loop run first.
  static let costlierNest = nests.replacingOccurrences(of: "g = g + j", with: "g = g + j * j + j")

  /// A nest whose inner loop calls a function too large to copy, which the loop run first
  /// calls too: that loop's module compiles it for good.
  static let sharedCallee = """
    def binary : 1 (x y) y
    var g = 0, n = 200
    def big(x) \(Array(repeating: "x * 1.5", count: 80).joined(separator: " + "))
    for s = 0, s < 100 in g = g + big(s)
    def fixed() for i = 0, i < 3 in for j = 0, j < n in g = g + big(j)
    fixed()
    """

  /// The interpreter's thread, having handed over the loop it runs, compiles the next inner
  /// loop of a nest known to run long while it waits, rather than crawl: that code is there
  /// when the request returns. Not a loop whose iterations cost more than the loop it waits
  /// for (its compile would likely outlast the request's), nor one whose module would call
  /// a function another module compiles (it could link before that one), nor loops outside
  /// any nest: the compiler thread compiles them ahead once idle.
  @Test(arguments: [("nests", 1), ("costlier", 0), ("shared callee", 0), ("singles", 0)])
  func theInterpretersThreadCompilesAnInnerLoopWhileItWaits(program name: String, whileWaiting: Int) throws {
    let sources = [
      "nests": Self.nests, "costlier": Self.costlierNest, "shared callee": Self.sharedCallee, "singles": Self.singles,
    ]
    let source = try #require(sources[name])
    #expect(source.contains("g + j * j") == (name == "costlier"))
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1000, waits: false, declaring: true)
    defer { tiers.finish() }
    // The compiler thread finds the loops to compile ahead as the program starts.
    tiers.waitUntilIdle()
    let first = try #require(program.bodies.firstIndex { $0.function == nil && $0.hasLoop })
    tiers.starting(topLevel: first)
    _ = tiers.loop(program.bodies[first].loops[0], of: first, iterations: 8)
    #expect(tiers.statistics.figures.modulesWhileWaiting == whileWaiting)
    guard whileWaiting > 0 else { return }
    let (_, inner, body) = try Self.nest(of: "fixed", in: program)
    #expect(tiers.loop(inner, of: body, iterations: 0) != nil)
  }

  /// A loop the interpreter crawls through, asked for while the compiler thread is busy, is
  /// compiled on the interpreter's thread: its code is there when the request returns. Not
  /// one that calls a function too large to copy (its module may call code still on its
  /// way), nor one whose inner loop has code (the interpreter runs that at full speed).
  @Test(arguments: [("alone", true), ("large callee", false), ("inner code", false)])
  func aLoopAskedForWhileTheCompilerIsBusyIsCompiledByTheInterpreter(program name: String, here: Bool) throws {
    let big = Array(repeating: "x * 1.5", count: 80).joined(separator: " + ")
    let sources = [
      "alone": "def binary : 1 (x y) y\nvar g = 0\ndef work(m) for i = 0, i < m in g = g + i\nwork(5)",
      "large callee": "def binary : 1 (x y) y\nvar g = 0\ndef big(x) \(big)\n"
        + "def work(m) for i = 0, i < m in g = g + big(i)\nwork(5)",
      "inner code": "def binary : 1 (x y) y\nvar g = 0\n"
        + "def work(m) for i = 0, i < m in for j = 0, j < m in g = g + j\nwork(5)",
    ]
    let (program, tiers) = try Self.tiers(of: try #require(sources[name]), hotCalls: 1000, waits: false, declaring: true)
    let release = DispatchSemaphore(value: 0)
    defer {
      release.signal()
      tiers.finish()
    }
    tiers.waitUntilIdle()
    let body = try #require(program.bodyIndex(ofFunction: "work"))
    let loops = program.bodies[body].loops
    let outer = try #require(loops.first { outer in loops.allSatisfy { $0 == outer || program.tree.contains($0, under: outer) } })
    if let inner = loops.first(where: { $0 != outer }) {
      // The inner loop gets its code first, from an idle compiler thread.
      _ = tiers.loop(inner, of: body, iterations: 8)
      tiers.waitUntilIdle()
      #expect(tiers.loop(inner, of: body, iterations: 16) != nil)
    }
    tiers.occupyCompiler(until: release)
    #expect((tiers.loop(outer, of: body, iterations: 8) != nil) == here, "\(name)")
    #expect(tiers.statistics.figures.modulesOfRunningLoops == (here ? 1 : 0), "\(name)")
  }

  /// The two loops of the nest in the function `name` of `nests` and its kin, and its body.
  static func nest(of name: String, in program: CheckedProgram) throws -> (outer: ExprID, inner: ExprID, body: Int) {
    let body = try #require(program.bodyIndex(ofFunction: name))
    let nest = program.bodies[body].loops
    let outer = try #require(nest.first { outer in nest.contains { $0 != outer && program.tree.contains($0, under: outer) } })
    return (outer, try #require(nest.first { $0 != outer }), body)
  }

  /// Each entry into a loop's code counts as `shortRun` iterations of the loop around it:
  /// that loop gets hot after about 41 iterations that enter the code, not 4,096.
  @Test(arguments: [40, 41])
  func theLoopAroundALoopWithCodeGetsHotSooner(entries: Int) throws {
    let source = "def binary : 1 (x y) y\nvar g = 0\ndef f(n) for i = 0, i < n in for j = 0, j < 1000 in g = g + j\n0\n"
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1000, hotIterations: 4096)
    defer { tiers.finish() }
    let body = try #require(program.bodies.firstIndex { $0.function != nil && $0.hasLoop })
    let loops = program.bodies[body].loops
    let outer = try #require(loops.first { outer in loops.contains { $0 != outer && program.tree.contains($0, under: outer) } })
    let inner = try #require(loops.first { $0 != outer })
    #expect(tiers.loop(outer, of: body, iterations: 0) == nil)
    // One long run makes the inner loop hot: its code takes over at the next report.
    for iterations in stride(from: 0, through: 4096, by: 1024) { _ = tiers.loop(inner, of: body, iterations: iterations) }
    for _ in 0..<entries { #expect(tiers.loop(inner, of: body, iterations: 0) != nil) }
    let hot = entries * TieredExecution.shortRun >= 4096
    #expect((tiers.loop(outer, of: body, iterations: 0) != nil) == hot)
  }

  /// A loop whose iteration calls a helper eight times is hot after fewer iterations than
  /// one that adds two numbers (`LoopCosts`): after 1,024 of a run in progress, where the
  /// sum needs 4,096.
  @Test(arguments: [false, true])
  func aLoopThatDoesMoreIsHotSooner(costly: Bool) throws {
    let added = costly ? (1...8).map { "h(i + \($0))" }.joined(separator: " + ") : "i"
    let source = "def binary : 1 (x y) y\nvar g = 0\n\(LoopCostsTests.helper)def f(n) for i = 0, i < n in g = g + \(added)\n0\n"
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1000, hotIterations: 4096)
    defer { tiers.finish() }
    let body = try #require(program.bodyIndex(ofFunction: "f"))
    let loop = try #require(program.bodies[body].loops.first)
    #expect(tiers.loop(loop, of: body, iterations: 0) == nil)
    #expect((tiers.loop(loop, of: body, iterations: 1024) != nil) == costly)
  }

  /// A loop's module calls a recursive function compiled already where it is, and takes a
  /// private copy of a small one that is not recursive (`sq`, copied into `fact`'s module too).
  /// LLVM cannot inline a recursion whole, and a copy of one only made the module longer
  /// to compile (memo.ks: 11 ms, with `fib` copied).
  @Test func aRecursiveFunctionCompiledAlreadyIsCalledNotCopied() throws {
    let source = """
      def binary : 1 (x y) y
      var g = 0
      def sq(x) x * x
      def fact(n) if n < 2 then 1 else sq(1) * n * fact(n - 1)
      def drive(n) for i = 0, i < n in g = g + fact(5) + sq(i)
      0
      """
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1)
    defer { tiers.finish() }
    let fact = try #require(program.function(named: "fact"))
    tiers.called(fact, times: 1, at: nil)
    #expect(tiers.statistics.figures.functions == 1)
    #expect(tiers.statistics.figures.copies == 1)
    let body = try #require(program.bodyIndex(ofFunction: "drive"))
    let loop = try #require(program.bodies[body].loops.first)
    #expect(tiers.loop(loop, of: body, iterations: 8) != nil)
    #expect(tiers.statistics.figures.loops == 1)
    // `sq` again, not `fact`.
    #expect(tiers.statistics.figures.copies == 2)
  }

  static let source = "def binary : 1 (x y) y\nvar g = 0\ndef f(n) for i = 0, i < n in g = g + i\n0\n"

  /// Many short runs make a loop hot; but in a function with no loop around it, the
  /// function's calls are its loop around: the function's code, on its way or compiled
  /// once the function is hot, runs the loop from its next call. Only a long run in
  /// progress is worth a module of the loop's own.
  @Test(arguments: [false, true])
  func aLoopOfShortRunsInAFunctionWaitsForTheFunction(functionRequested: Bool) throws {
    let (program, tiers) = try Self.tiers(of: Self.source, hotCalls: 1)
    defer { tiers.finish() }
    let function = try #require(program.function(named: "f"))
    let body = try #require(program.bodies.firstIndex { $0.function == function })
    let loop = try #require(program.bodies[body].loops.first)
    if functionRequested {
      tiers.called(function, times: 1, at: nil)
      #expect(tiers.statistics.figures.modules == 1)
      #expect(tiers.entries[Int(function.index)] != nil)
    }
    // Three runs of 3 iterations each: 9, past the 8 that make the loop hot.
    for _ in 0..<3 {
      #expect(tiers.loop(loop, of: body, iterations: 0) == nil)
      tiers.loopEnded(loop, iterations: 3)
    }
    #expect(tiers.loop(loop, of: body, iterations: 0) == nil)
    #expect(tiers.statistics.figures.loops == 0)
    // A run that has gone on for 8 iterations gets the loop's code.
    #expect(tiers.loop(loop, of: body, iterations: 8) != nil)
    #expect(tiers.statistics.figures.loops == 1)
  }

  static let topLevelLoop = "def binary : 1 (x y) y\nvar g = 0\nfor i = 0, i < 3 in g = g + i\n"

  /// At the top level, no calls come around a loop: one hot from short runs is compiled.
  @Test func aTopLevelLoopOfShortRunsIsCompiled() throws {
    let (program, tiers) = try Self.tiers(of: Self.topLevelLoop, hotCalls: 1000)
    defer { tiers.finish() }
    let body = try #require(program.bodies.firstIndex { $0.function == nil && $0.hasLoop })
    let loop = try #require(program.bodies[body].loops.first)
    for _ in 0..<3 {
      #expect(tiers.loop(loop, of: body, iterations: 0) == nil)
      tiers.loopEnded(loop, iterations: 3)
    }
    #expect(tiers.loop(loop, of: body, iterations: 0) != nil)
    #expect(tiers.statistics.figures.loops == 1)
  }

  static let nest = "def binary : 1 (x y) y\nvar g = 0\ndef f(n) for i = 0, i < n in for j = 0, j < 3 in g = g + j\n0\n"

  /// An inner loop hot from many short runs has the loop around it compiled instead (it is
  /// entered at its next iteration, with the inner one inside); one hot within a long run
  /// is compiled itself.
  @Test(arguments: [false, true])
  func aLoopOfShortRunsHasTheLoopAroundItCompiled(shortRuns: Bool) throws {
    let (program, tiers) = try Self.tiers(of: Self.nest, hotCalls: 1000)
    defer { tiers.finish() }
    let body = try #require(program.bodies.firstIndex { $0.function != nil && $0.hasLoop })
    let outer = program.bodies[body].loops[0]
    let inner = program.bodies[body].loops[1]
    if shortRuns {
      for _ in 0..<3 {
        #expect(tiers.loop(inner, of: body, iterations: 0) == nil)
        tiers.loopEnded(inner, iterations: 3)
      }
      #expect(tiers.loop(inner, of: body, iterations: 0) == nil)
      #expect(tiers.loop(outer, of: body, iterations: 0) != nil)
    } else {
      #expect(tiers.loop(inner, of: body, iterations: 0) == nil)
      #expect(tiers.loop(inner, of: body, iterations: 8) != nil)
      #expect(tiers.loop(outer, of: body, iterations: 0) == nil)
    }
    #expect(tiers.statistics.figures.loops == 1)
  }

  /// A loop of short runs inside a loop known to run short too (counted to a literal bound)
  /// has the first loop further out whose runs are not compiled, with both inside, rather
  /// than the loop around it, which would get hot the same way and be compiled again there.
  @Test(arguments: [false, true])
  func loopsKnownToRunShortAreClimbedPast(middleKnownShort: Bool) throws {
    let middle = middleKnownShort ? "for j = 0 - 1, j < 2" : "for j = 0, j < m"
    let source = """
      def binary : 1 (x y) y
      var g = 0
      def work(n, m) for i = 0, i < n in \(middle) in for k = 0, k < m in g = g + k
      0
      """
    let (program, tiers) = try Self.tiers(of: source, hotCalls: 1000)
    defer { tiers.finish() }
    let body = try #require(program.bodies.firstIndex { $0.function != nil && $0.hasLoop })
    let loops = program.bodies[body].loops
    for _ in 0..<3 {
      #expect(tiers.loop(loops[2], of: body, iterations: 0) == nil)
      tiers.loopEnded(loops[2], iterations: 3)
    }
    #expect(tiers.loop(loops[2], of: body, iterations: 0) == nil)
    #expect((tiers.loop(loops[0], of: body, iterations: 0) != nil) == middleKnownShort)
    #expect((tiers.loop(loops[1], of: body, iterations: 0) != nil) == !middleKnownShort)
    #expect(tiers.statistics.figures.loops == 1)
  }
}
