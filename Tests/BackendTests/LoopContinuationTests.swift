import CLLVM
import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// The rest of a running loop, as tiered execution compiles it (`emitLoopContinuation`),
/// matched by FileCheck in its unoptimised IR.
@Suite("Loop continuations")
struct LoopContinuationTests {
  /// The continuation of the inner loop of `fill` (its outermost, if `outermost`), whose
  /// frame the interpreter passes in cells.
  static func innerLoopContinuation(
    of source: String, forUsualFrames: Bool = false, fixed: IRGenerator.FixedGlobals = .init(),
    optimized: Bool = false, outermost: Bool = false
  ) throws -> String {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors)
    let program = result.program
    let body = try #require(program.body(ofFunction: "fill"))
    let inner = try #require(outermost ? body.loops.first : body.loops.last)
    return try LargeStack.run { () throws -> String in
      let module = Module(name: "tier", context: Context())
      let generator = IRGenerator(
        program: program, module: module, options: CompileOptions(optimization: .none),
        linking: .tiered(copies: [], fixed: fixed), unresolved: [])
      generator.emitLoopContinuation(
        named: "tier.loop", loop: inner, of: body, forUsualFrames: forUsualFrames)
      if optimized { try module.optimize(level: .standard, for: JIT.machine(optimization: .standard)) }
      return module.text
    }
  }

  /// Globals that can no longer change (`TierCompiler.fixedGlobals`) are constants: the
  /// bound `N` and the grid's length, as LLVM knows them in a whole program; the grid's
  /// elements are read from its cell once, a read LLVM may move anywhere, since their
  /// address, which differs from run to run, must not be in the module (a later run may
  /// reuse its machine code). The others are read from their cells, external globals that
  /// the JIT defines.
  @Test func fixedGlobalsAreConstants() throws {
    let source = "var N = 4, M = 4, grid[16]\ndef fill() for i = 0, i < N in for j = 0, j < M in grid[i * N + j] = j\nfill()\n"
    var fixed = IRGenerator.FixedGlobals()
    fixed.numbers[0] = 4
    fixed.arrays[2] = 16
    let ir = try Self.innerLoopContinuation(of: source, fixed: fixed)
    let checks = """
      CHECK: @tier.global.M = external global double
      CHECK: @tier.global.grid = external global { ptr, i64 }
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK-NOT: @tier.global.N
      CHECK: load double, ptr @tier.global.M
      CHECK: [[ELEMENTS:%elements[0-9]*]] = load ptr, ptr @tier.global.grid, {{.*}}!invariant.load
      CHECK-NOT: inttoptr
      CHECK: icmp ult i64 {{%[0-9]+}}, 16
      CHECK: getelementptr inbounds double, ptr [[ELEMENTS]]
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// A global the loop reads and writes, after a bounds check, is read once before the loop
  /// and kept in a register: LLVM may read a global ahead of a branch, and knows it apart
  /// from the arrays. Given as an address, the cell was read again at every iteration,
  /// after the store of the one before (four times slower).
  @Test func aGlobalSummedInTheLoopIsReadOnceBeforeIt() throws {
    let ir = try Self.innerLoopContinuation(
      of: """
        var total = 0, source[100]
        def set(k, x) source[k] = x
        def fill(n) for i = 0, i < n in total = total + source[i]
        set(1, 0.5)
        fill(100)

        """,
      optimized: true)
    let checks = """
      CHECK-LABEL: define {{.*}} @tier.loop(ptr {{.*}}%0, i32 %depth)
      CHECK: load double, ptr @tier.global.total
      CHECK: {{^}}loop:
      CHECK-NOT: load double, ptr @tier.global.total
      CHECK: store double {{%.*}}, ptr @tier.global.total
      CHECK-NOT: load double, ptr @tier.global.total
      CHECK: {{^}}}
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// The counter of the loop around the one continued lives as an integer too: the index
  /// `i * N + j` is computed in integers, with the bounds comparison and no fraction test.
  @Test func anOuterCounterIsAnIntegerInTheRestOfAnInnerLoop() throws {
    let ir = try Self.innerLoopContinuation(
      of: "var N = 4, grid[16]\ndef fill() for i = 0, i < N in for j = 0, j < N in grid[i * N + j] = j\nfill()\n")
    let checks = """
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK: [[OUTER:%[0-9]+]] = fptosi double {{%[0-9]+}} to i64
      CHECK-NEXT: store i64 [[OUTER]], ptr %i.int
      CHECK: [[I:%counter[0-9]*]] = load i64, ptr %i.int
      CHECK: [[IN:%[0-9]+]] = mul nsw i64 [[I]], {{%[0-9]+}}
      CHECK: [[J:%counter[0-9]*]] = load i64, ptr %j.int
      CHECK: [[POSITION:%[0-9]+]] = add nsw i64 [[IN]], [[J]]
      CHECK-NOT: fcmp oeq
      CHECK: %inbounds = icmp ult i64 [[POSITION]], %count
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// A counter entered at the top of an iteration is at least its loop's start, since it
  /// only grows and the start reads nothing the loop assigns: LLVM is told so (and can
  /// check an index counted from 0 against its bound once, before the loop). The outer
  /// counter `i` is at least 0, the inner `j` at least `i`; not `j` at least `m`, which
  /// the loop changes.
  static let assumedStarts: [(source: String, assumed: [String])] = [
    ("var N = 4, grid[16]\ndef fill(n) for i = 0, i < N in for j = i, j < N in grid[i * N + j] = j", ["0", "%counter"]),
    ("var grid[16]\ndef fill(n) var m = 0 in for j = m, j < n in (m = m + 1) : (grid[m] = j)", []),
  ]

  @Test(arguments: assumedStarts)
  func aCounterIsAtLeastItsLoopsStart(case: (source: String, assumed: [String])) throws {
    let ir = try Self.innerLoopContinuation(
      of: "def binary : 1 (x y) y\n\(`case`.source)\nfill(4)\n", forUsualFrames: true)
    let assumptions = `case`.assumed.map {
      "CHECK: [[AT_LEAST:%[0-9]+]] = icmp sge i64 {{%[0-9]+}}, \($0)\nCHECK-NEXT: call void @llvm.assume(i1 [[AT_LEAST]])"
    }
    let checks =
      (["CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)"] + assumptions + [
        "CHECK-NOT: @llvm.assume(", "CHECK: ret i32 1",
      ])
      .joined(separator: "\n")
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil, "\(ir)")
  }

  /// The counter of a loop around the rest of a running loop passes its loop's test, since
  /// the running loop is in that loop's body and neither side has changed since: LLVM is
  /// told so when the bound is a local the loop leaves alone (`n`, assumed whole) or a
  /// global that can no longer change (`N`, a constant here). Not for a global that may
  /// change (`M`), nor for the running loop's own counter, which its code tests itself.
  static let passedTests: [(source: String, fixed: [Int32: Double], bound: String?)] = [
    ("var grid[16]\ndef fill(n) for i = 0, i < n in for j = 0, j < n in grid[i * n + j] = j", [:], "%counter{{[0-9]*}}"),
    ("var N = 4, grid[16]\ndef fill(n) for i = 0, i < N in for j = 0, j < N in grid[i * N + j] = j", [0: 4], "4"),
    ("var M = 4, grid[16]\ndef fill(n) for i = 0, i < M in for j = 0, j < M in grid[i * M + j] = j", [:], nil),
  ]

  @Test(arguments: passedTests)
  func anOuterCounterPassesItsLoopsTest(case: (source: String, fixed: [Int32: Double], bound: String?)) throws {
    var fixed = IRGenerator.FixedGlobals()
    fixed.numbers = `case`.fixed
    let ir = try Self.innerLoopContinuation(
      of: "def binary : 1 (x y) y\n\(`case`.source)\nfill(4)\n", forUsualFrames: true, fixed: fixed)
    let passes = `case`.bound.map {
      [
        "CHECK: [[PASSES:%loopcond[0-9]*]] = icmp slt i64 %counter{{[0-9]*}}, \($0)",
        "CHECK-NEXT: call void @llvm.assume(i1 [[PASSES]])",
      ]
    }
    let checks =
      (["CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)"] + (passes ?? []) + [
        "CHECK-NOT: call void @llvm.assume(i1 %loopcond", "CHECK: ret i32 1",
      ])
      .joined(separator: "\n")
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil, "\(ir)")
  }

  /// The rest of a loop stores back to the frame what the frame reads after it (`fill`'s
  /// `t`, cell 2), not what it binds (its counter `i`, the `var` `s` and the inner counter
  /// `j`: cells 4, 6 and 8), whose doubles would otherwise be computed at every iteration
  /// only to be stored, nor what only the loop reads (`n`, cell 0).
  @Test func whatTheLoopBindsIsNotStoredBack() throws {
    let ir = try Self.innerLoopContinuation(
      of: "def binary : 1 (x y) y\n"
        + "def fill(n) var t = 0 in (for i = 0, i < n in var s = 0 in (for j = 0, j < n in s = s + j) : (t = t + s)) : t\n"
        + "fill(4)\n",
      outermost: true)
    let checks = """
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK: {{^}}afterloop:
      CHECK-NOT: ptr %0, i64 {{[0468]}}{{$}}
      CHECK: getelementptr double, ptr %0, i64 2{{$}}
      CHECK-NOT: ptr %0, i64 {{[0468]}}{{$}}
      CHECK: ret i32 1
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil, "\(ir)")
  }

  /// What the frame reads after the loop (`q`, cell 4) is stored back, and what it never
  /// reads again (`p`, cell 2; `n`, cell 0) is not; unless the loop lies in another, whose
  /// next iteration runs it again from what this run left (`k`, cell 6, is that loop's
  /// counter).
  static let storedBack: [(source: String, stored: [Int], left: [Int])] = [
    ("def fill(n) var p = 0, q = 0 in (for i = 0, i < n in (p = p + i) : (q = q + 1)) : q", [4], [0, 2]),
    ("def fill(n) var p = 0, q = 0 in for k = 0, k < 2 in for i = 0, i < n in (p = p + i) : (q = q + 1)", [0, 2, 4, 6], []),
  ]

  @Test(arguments: storedBack)
  func whatTheFrameNeverReadsAgainIsNotStoredBack(case: (source: String, stored: [Int], left: [Int])) throws {
    let ir = try Self.innerLoopContinuation(of: "def binary : 1 (x y) y\n\(`case`.source)\nfill(4)\n")
    let left = `case`.left.isEmpty ? [] : ["CHECK-NOT: ptr %0, i64 {{[\(`case`.left.map(String.init).joined())]}}{{$}}"]
    let stores = `case`.stored.flatMap { ["CHECK: getelementptr double, ptr %0, i64 \($0){{$}}"] + left }
    let checks = (["CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)", "CHECK: {{^}}afterloop:"] + left + stores)
      .joined(separator: "\n")
    #expect(try FileCheck.failure(of: ir, checks: checks + "\nCHECK: ret i32 1") == nil, "\(ir)")
  }

  /// Operators that call operators, as a Brainfuck interpreter's `c % 43` calls `~`: each
  /// call checks the frame's call depth, a parameter of the rest of the loop.
  static let operatorCalls = """
    def binary : 1 (x y) y
    def binary~ 9 (a b) if a < b then 1 else b < a
    def binary% 9 (a b) if a ~ b then 0 else 1
    var grid[16]
    def fill(n) for i = 0, i < n in grid[i] = i % 3
    fill(4)
    """

  /// Made for a usual frame, the rest of the loop first checks that the frame is far from
  /// the call depth limit (else returns 0), and then LLVM removes every check of a call in
  /// the loop, inlined ones included. General code keeps them.
  @Test(arguments: [true, false])
  func aFrameFarFromTheDepthLimitRunsTheLoopWithoutDepthChecks(assumed: Bool) throws {
    let ir = try Self.innerLoopContinuation(of: Self.operatorCalls, forUsualFrames: assumed, optimized: true)
    let checks =
      if assumed {
        """
        CHECK-LABEL: define {{.*}} @tier.loop(ptr {{.*}}%0, i32 %depth)
        CHECK: icmp {{ult|ugt}} i32 %depth, {{99000|98999}}
        CHECK-NOT: @ks_call_depth_error
        CHECK: {{^}}}
        """
      } else {
        """
        CHECK-LABEL: define {{.*}} @tier.loop(ptr {{.*}}%0, i32 %depth)
        CHECK-NOT: i32 %depth, {{99000|98999}}
        CHECK: call {{.*}} @ks_call_depth_error
        """
      }
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil, "\(ir)")
  }

  /// An outer counter that its loop assigns is not known to be whole: the index keeps the
  /// fraction test.
  @Test func anAssignedOuterCounterKeepsTheFractionTest() throws {
    let ir = try Self.innerLoopContinuation(
      of: "var N = 4, grid[16]\ndef binary : 1 (x y) y\n"
        + "def fill() for i = 0, i < N in (for j = 0, j < N in grid[i * N + j] = j) : (i = i + 0.5)\nfill()\n")
    let checks = """
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK-NOT: store i64 {{.*}}, ptr %i.int
      CHECK: %whole = fcmp oeq
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// A fixed number the loop only computes with (a weight) is not assumed whole: a frame
  /// whose weight is a fraction runs the same code, where it would miss it and wait for a
  /// general compile. The bound is still assumed.
  @Test func aFixedWeightIsNotAssumedWhole() throws {
    let ir = try Self.innerLoopContinuation(
      of: "var grid[16]\ndef fill(n w) for i = 0, i < 4 in for j = 0, j < n in grid[j] = j * w\nfill(4, 0.5)\n",
      forUsualFrames: true)
    let checks = """
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK-NOT: %w.int
      CHECK: %n.int = alloca i64
      CHECK-NOT: %w.int
      CHECK: br i1 {{%[0-9]+}}, label %assumedwhole, label %notwhole
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// A bound fixed throughout the loop (a parameter, or a `var` around the loop, that
  /// nothing assigns) or one the body assigns; `integral` when every value it is given is a
  /// known whole number (`IndexFacts.integralLocals`).
  static let bounds: [(source: String, fixed: Bool, integral: Bool)] = [
    ("def fill(n) for i = 0, i < 4 in for j = 0, j < n in grid[j] = i", true, false),
    ("def fill(m) var n = 4 in for i = 0, i < 4 in for j = 0, j < n in grid[j] = i", true, true),
    ("def fill(m) var n = 4 in (for i = 0, i < 4 in for j = 0, j < n in grid[j] = i) : (n = 5)", false, true),
    ("def fill(m) var n = 4 in (for i = 0, i < 4 in for j = 0, j < n in grid[j] = i) : (n = m)", false, false),
  ]

  /// Assuming the numbers fixed throughout the loop whole, the code checks them on entry
  /// (else returns 0) and counts `j < n` in integers. An integral bound counts in integers
  /// without the assumption, its integer copy made from the cell on entry. Otherwise the
  /// test stays a double comparison.
  @Test(arguments: bounds, [true, false])
  func aFixedBoundCountsInIntegersWhenAssumedWhole(
    bound: (source: String, fixed: Bool, integral: Bool), assumed: Bool
  ) throws {
    let ir = try Self.innerLoopContinuation(
      of: "var grid[16]\ndef binary : 1 (x y) y\n\(bound.source)\nfill(4)\n", forUsualFrames: assumed)
    let checks =
      if assumed && bound.fixed {
        """
        CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
        CHECK: %n.int = alloca i64
        CHECK: br i1 {{%[0-9]+}}, label %assumedwhole, label %notwhole
        CHECK: notwhole:
        CHECK-NEXT: ret i32 0
        CHECK: [[BOUND:%counter[0-9]*]] = load i64, ptr %n.int
        CHECK-NEXT: %loopcond{{[0-9]*}} = icmp slt i64 {{%counter[0-9]*}}, [[BOUND]]
        """
      } else if bound.integral {
        """
        CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
        CHECK: %n.int = alloca i64
        CHECK: [[BOUND:%counter[0-9]*]] = load i64, ptr %n.int
        CHECK-NEXT: %loopcond{{[0-9]*}} = icmp slt i64 {{%counter[0-9]*}}, [[BOUND]]
        """
      } else {
        """
        CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
        CHECK-NOT: %n.int = alloca
        CHECK: fcmp ult double
        """
      }
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }
}
