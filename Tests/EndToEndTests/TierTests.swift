import Testing

/// `run --tier auto`: the interpreter starts, hot functions and loops move to machine code,
/// and what the program prints never changes. `--tier-wait` compiles on the interpreter's
/// thread, so each switch happens at the same point in every run; `--stats` says what ran
/// where, which is how these tests know that a switch happened.
@Suite("Tiers")
struct TierTests {
  /// A loop that changes a local, a global and a global array on every iteration, in a
  /// function called once: only on-stack replacement can move it to machine code.
  static let loopProgram = """
    def binary : 1 (x y) y
    extern floor(x)
    var total = 0, seen[64]
    def walk(n)
      var local = 1 in
        (for i = 0, i < n in
          (local = local * 1.5 - i) :
          (total = total + i) :
          (seen[i - 64 * floor(i / 64)] = i)) :
        local + total + seen[63]
    walk(1000)
    total
    seen[5]
    """

  /// The same loop written with `while` (SPEC §5.1): tiers promote it as they do a `for`.
  static let whileLoopProgram = """
    def binary : 1 (x y) y
    extern floor(x)
    var total = 0, seen[64]
    def walk(n)
      var local = 1, i = 0 in
        (while i < n in
          (local = local * 1.5 - i) :
          (total = total + i) :
          (seen[i - 64 * floor(i / 64)] = i) :
          (i = i + 1)) :
        local + total + seen[63]
    walk(1000)
    total
    seen[5]
    """

  static func run(_ arguments: [String], _ program: String) throws -> Tool.Output {
    try Tool.run(["run"] + arguments + ["-"], stdin: program)
  }

  /// A program that ends while LLVM still compiles for it ends at once (`_exit`, without
  /// LLVM's destructors, so without waiting): with all its output and its status, also
  /// when it ends in a runtime error, and with every function hot at its first call.
  @Test(arguments: [("", 0), ("var a[1]\na[1]\n", 1)])
  func aProgramEndingWhileACompileRunsEndsWithAllItsOutput(ending: String, status: Int32) throws {
    let calls = (0..<40).map { "def f\($0)(x) for i = 0, i < x in putchard(65 + \($0 % 26))\nf\($0)(3)\n" }
    let program = "extern putchard(c)\n" + calls.joined() + ending
    let output = try Self.run(["-q", "--stats", "--tier-hot-calls", "1", "--tier-hot-iterations", "0"], program)
    let expected = (0..<40).map { String(repeating: String(UnicodeScalar(UInt8(65 + $0 % 26))), count: 3) }.joined()
    #expect(output.status == status)
    #expect(output.stdout == expected)
    #expect(output.stderr.contains(status == 0 ? "stats: total:" : "runtime error: index 1 is out of bounds"))
  }

  @Test(arguments: [loopProgram, whileLoopProgram])
  func aLoopSwitchesToMachineCodeInItsMiddleAndKeepsItsState(program: String) throws {
    let interpreted = try Self.run(["--tier", "interp"], program)
    let tiered = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", "5"], program)
    #expect(interpreted.status == 0)
    #expect(tiered.stdout == interpreted.stdout)
    // The loop's code comes with private copies of the small functions it calls (here
    // `:`), which are not counted: nothing else is compiled for good.
    #expect(tiered.stderr.contains("machine code: 0 functions, 1 loop"), "\(tiered.stderr)")
  }

  /// A nest of `depth` loops of `trips` iterations each, `for` or `while`, in a function
  /// called once or at the top level, whose bounds come from a global.
  static func nest(depth: Int, kind: String, inFunction: Bool, trips: Int) -> String {
    var body = "total = total + i\(depth - 1)"
    for level in (0..<depth).reversed() {
      body =
        kind == "for"
        ? "(for i\(level) = 0, i\(level) < n in \(body))"
        : "(var i\(level) = 0 in (while i\(level) < n in (\(body)) : (i\(level) = i\(level) + 1)))"
    }
    let run = inFunction ? "def work() \(body)\nwork()" : body
    return "def binary : 1 (x y) y\nvar total = 0, n = \(trips)\n\(run)\ntotal\n"
  }

  /// A long-running loop nest ends up in machine code whatever its depth: each loop's short
  /// runs add up until it is hot (issue 31: a nest of three short loops used to stay in the
  /// interpreter, 50 times slower). Counted, not timed: `--stats` tells how many iterations
  /// the interpreter ran, and without the promotion it would run them all.
  @Test(arguments: [1, 2, 3, 4], ["for", "while"])
  func aLongLoopNestEndsUpInMachineCode(depth: Int, kind: String) throws {
    let trips = [1: 200_000, 2: 450, 3: 60, 4: 22][depth]!
    let total = (0..<depth).reduce(1) { product, _ in product * trips }
    for inFunction in [true, false] {
      let program = Self.nest(depth: depth, kind: kind, inFunction: inFunction, trips: trips)
      let output = try Self.run(["--stats", "--tier-wait"], program)
      // The loop's value, then the sum of the innermost variable over every iteration.
      let sum = (trips - 1) * trips / 2 * (total / trips)
      #expect(output.stdout == "0\n\(sum)\n", "\(program)")
      let interpreted = try #require(Self.interpretedIterations(output.stderr), "\(output.stderr)")
      #expect(interpreted * 4 < total, "\(interpreted) of \(total) iterations interpreted:\n\(program)\(output.stderr)")
    }
  }

  /// An inner loop of short runs has the loop around it compiled, and that loop switches at
  /// its next iteration, not at its next regular report, 1,024 long iterations on: the
  /// interpreter notices the hand-over (`CompiledCode.loopsHandedOver`) and asks for the
  /// code at each iteration until it lands. Counted, not timed: the inner loop gets hot
  /// after about 82 of the 3,000 outer iterations; waiting for the report interpreted 52,224
  /// iterations (an insertion sort written this way ran 1.7 times its `--tier jit` time).
  @Test func theLoopAroundAnInnerLoopOfShortRunsSwitchesAtItsNextIteration() throws {
    let program = """
      def binary : 1 (x y) y
      var a[64]
      def work(n) for i = 0, i < n in var j = 0 in while j < 50 in (a[j] = a[j] + i) : (j = j + 1)
      work(3000)
      a[7]
      """
    let output = try Self.run(["--stats", "--tier-wait"], program)
    #expect(output.stdout == "0\n4498500\n")
    #expect(output.stderr.contains("1 loop (1 module"), "\(output.stderr)")
    let interpreted = try #require(Self.interpretedIterations(output.stderr), "\(output.stderr)")
    #expect(interpreted < 5000, "\(output.stderr)")
  }

  /// The loop iterations `--stats` says the interpreter ran.
  static func interpretedIterations(_ stats: String) -> Int? {
    guard let line = stats.split(separator: "\n").first(where: { $0.contains("loop iteration") }),
      let words = line.split(separator: ",").last?.split(separator: " ")
    else { return nil }
    return words.first.flatMap { Int($0) }
  }

  /// At the top of an iteration, an array declared in the body is out of scope, and its slot
  /// names an array already freed.
  @Test(arguments: ["0", "5"])
  func aLoopWithAnArrayInItsBodySwitches(hotIterations: String) throws {
    let program = """
      def binary : 1 (x y) y
      def f(n)
        var s = 0 in
          (for i = 0, i < n in
            var a[3] in
              (a[1] = i) : (s = s + a[1] + len(a))) : s
      f(20)
      """
    let output = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", hotIterations], program)
    #expect(output.stdout == "250\n")
    #expect(output.status == 0)
    #expect(output.stderr.contains("1 loop ("), "\(output.stderr)")
  }

  /// A loop's code assumes the numbers fixed throughout it that it counts with (here `n`
  /// and `z`, in its bound) whole; a run from a frame where one is not (`z` a half) misses it,
  /// and is interpreted until general code for the loop is compiled: two loops' code in all.
  @Test(arguments: ["0", "5"])
  func aLoopsCodeStartsFromTheFrameItWasCompiledFor(hotIterations: String) throws {
    let program = """
      def binary : 1 (x y) y
      def walk(n z) var s = 0 in (for i = 0, i < n + z in s = s + i) : (s + 1 / z)
      walk(10, -0)
      walk(10, 0)
      walk(10, 0.5)
      walk(12, 1)
      walk(3, -1)
      """
    let interpreted = try Self.run(["--tier", "interp"], program)
    let tiered = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", hotIterations], program)
    #expect(interpreted.stdout == "-inf\ninf\n57\n79\n0\n")
    #expect(tiered.stdout == interpreted.stdout)
    #expect(tiered.stderr.contains("2 loops (2 modules"), "\(tiered.stderr)")
    // Both compiled: the general code is not a second definition of the first's name.
    #expect(!tiered.stderr.contains("not compiled"), "\(tiered.stderr)")
  }

  /// A long run that misses the first code of its loop (issue 31: a bound that stops
  /// being whole) goes on in the general code. Counted, not timed: interpreted, the run
  /// would report all its 100,000 iterations.
  @Test func aLongRunThatMissesTheLoopsCodeGoesOnInGeneralCode() throws {
    let program = """
      def binary : 1 (x y) y
      var total = 0
      def work(n scale) for i = 0, i < n * scale in total = total + i
      work(100, 1)
      work(200000, 0.5)
      total
      """
    let output = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", "5"], program)
    #expect(output.stdout == "0\n0\n4999954950\n")
    #expect(output.stderr.contains("2 loops (2 modules"), "\(output.stderr)")
    #expect(!output.stderr.contains("not compiled"), "\(output.stderr)")
    let interpreted = try #require(Self.interpretedIterations(output.stderr), "\(output.stderr)")
    #expect(interpreted < 1000, "\(output.stderr)")
  }

  /// A loop around a loop with code calls that code rather than compile it again, and a
  /// frame that code declines (a bound that is not whole, in the general code of the loop
  /// around) runs the module's own fallback: the four modules are the inner loop's, the
  /// loop around's for usual frames, which calls it, and both loops' general code, and
  /// what the program prints is what the interpreter prints.
  @Test func anOuterLoopRunsItsInnerLoopsCodeAndFallsBackForAnUnusualFrame() throws {
    let program = """
      def binary : 1 (x y) y
      var total = 0
      def work(n scale)
        for i = 0, i < 3 in
          for j = 0, j < n * scale in total = total + j
      work(1000, 1)
      for k = 0, k < 3 in work(10, 1)
      for k = 0, k < 3 in work(7, 0.5)
      total
      """
    let tiered = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", "5"], program)
    let interpreted = try Self.run(["--tier", "interp"], program)
    #expect(tiered.stdout == interpreted.stdout)
    #expect(tiered.stdout.hasSuffix("1498959\n"))
    #expect(tiered.stderr.contains("4 loops (4 modules"), "\(tiered.stderr)")
    #expect(!tiered.stderr.contains("not compiled"), "\(tiered.stderr)")
  }

  /// A loop entered by a frame near the call depth limit misses the code made for usual
  /// frames, which checks no depth, and runs in general code: a call past the limit, made
  /// after the loop went to machine code, fails there as in the interpreter, one short of
  /// it succeeds, and a usual frame's loop compiles once. `deep` is never compiled, so
  /// its frames stay in the interpreter.
  @Test(arguments: [(99_999, nil), (99_998, 2), (50_000, 1)] as [(Int, Int?)])
  func aLoopNearTheCallDepthLimitRunsInGeneralCode(depth: Int, modules: Int?) throws {
    let program = """
      def inc(x) x + 1
      var total = 0
      def deep(n)
        if n < 1 then (for i = 0, i < 500 in total = if i < 300 then total + 1 else inc(total)) else deep(n - 1)
      deep(\(depth))
      total

      """
    let tiered = try Self.run(
      ["--stats", "--tier-wait", "--tier-hot-calls", "1000000000", "--tier-hot-iterations", "100"], program)
    let interpreted = try Self.run(["--tier", "interp"], program)
    #expect(tiered.status == interpreted.status)
    #expect(tiered.stdout == interpreted.stdout)
    let message = interpreted.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(tiered.stderr.hasPrefix(message), "\(tiered.stderr)")
    if let modules {
      #expect(tiered.stdout == "0\n500\n")
      #expect(tiered.stderr.contains("\(modules) loop\(modules == 1 ? "" : "s") (\(modules) module"), "\(tiered.stderr)")
    } else {
      #expect(interpreted.status != 0)
      #expect(message.hasSuffix("runtime error: stack overflow: more than 100000 nested calls"), "\(message)")
    }
  }

  /// The inner loop's code stores back what only the loop reads (`p`), since the loop
  /// around it runs it again in the same frame, in the interpreter, from where it stopped.
  /// Its code leaves out what the frame never reads again; leaving out `p` here made the
  /// second and third runs start from a stale `p` (239,600).
  @Test(arguments: ["100", "1000"])
  func aLoopThatRunsAgainInItsFrameLeavesWhatItsNextRunReads(hotIterations: String) throws {
    let program = """
      def binary : 1 (x y) y
      def work(n) var p = 0, c = 0 in (for k = 0, k < 3 in while p < n * (k + 1) in (p = p + 1) : (c = c + 2)) : c
      work(20000)

      """
    let output = try Self.run(["--stats", "--tier-wait", "--tier-hot-iterations", hotIterations], program)
    #expect(output.stdout == "120000\n")
    #expect(output.stderr.contains("1 loop (1 module"), "\(output.stderr)")
  }

  @Test func aHotFunctionIsCompiledAndItsLaterCallsRunIt() throws {
    let program = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(20)\n"
    let output = try Self.run(["--stats", "--tier-wait", "--tier-hot-calls", "10"], program)
    #expect(output.stdout == "6765\n")
    #expect(output.stderr.contains("machine code: 1 function, 0 loops"), "\(output.stderr)")
    #expect(output.stderr.contains("interpreted: 1 function"), "\(output.stderr)")
  }

  /// A small function that cannot run for long gets no module of its own however often it
  /// is called: it is compiled into the module of the recursion that calls it, as a private
  /// copy (not counted among the functions).
  @Test func aSmallHotFunctionIsCompiledOnlyIntoItsCallers() throws {
    // `sq` is called twice as often as `sum`, so it gets hot first.
    let program = "def sq(x) x * x\ndef sum(k) if k < 50 then sq(k) + sq(k) + sum(k + 1) else 0\nsum(0)\n"
    let output = try Self.run(["--stats", "--tier-wait", "--tier-hot-calls", "10"], program)
    #expect(output.stdout == "80850\n")
    #expect(output.stderr.contains("machine code: 1 function, 0 loops (1 module,"), "\(output.stderr)")
  }

  @Test func codeThatIsNotHotStaysInTheInterpreter() throws {
    let program = "def twice(x) x * 2\ntwice(1)\ntwice(2)\n"
    let output = try Self.run(["--stats"], program)
    #expect(output.stdout == "2\n4\n")
    #expect(output.stderr.contains("machine code: 0 functions, 0 loops (0 modules"), "\(output.stderr)")
  }

  @Test func statsTellTheTierAndTheFirstOutput() throws {
    for tier in ["auto", "jit", "interp"] {
      let output = try Self.run(["--stats", "--tier", tier], "1 + 2\n")
      #expect(output.stdout == "3\n")
      #expect(output.stderr.contains("stats: tier: \(tier)\n"))
      #expect(output.stderr.contains("stats: first output: after "))
    }
  }

  @Test(arguments: [
    (["--tier", "interp", "--engine", "jit"], "disagree"),
    (["--tier", "interp", "-g"], "-g needs the JIT"),
    (["--tier", "fast"], "--tier"),
  ])
  func misuseIsRefused(arguments: [String], message: String) throws {
    let output = try Self.run(arguments, "1\n")
    #expect(output.status == 64)
    #expect(output.stderr.contains(message), "\(output.stderr)")
  }

  /// `interpreter`, the older spelling of `interp`, and the older flag `--engine` still work
  /// for scripts that use them.
  @Test(arguments: [["--engine", "interpreter"], ["--tier", "interpreter"], ["--engine", "interp"]])
  func olderSpellingsStillWork(arguments: [String]) throws {
    let output = try Self.run(["--stats"] + arguments, "1 + 2\n")
    #expect(output.stdout == "3\n")
    #expect(output.stderr.contains("stats: tier: interp\n"), "\(output.stderr)")
  }

  @Test func theREPLRefusesTheInterpTier() throws {
    let output = try Tool.run(["repl", "--tier", "interp"], stdin: "1\n")
    #expect(output.status == 64)
    #expect(output.stderr.contains("auto or the jit tier"), "\(output.stderr)")
  }
}
