import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// `run` and executables compile the reachable program, whose definitions are internal; a
/// definition the program calls from exactly one place is marked `alwaysinline`, so that the
/// optimiser does not simplify it on its own before inlining it (`inlineSoleCallees`).
/// Each case's unoptimised IR is matched by FileCheck (a run program's functions take the
/// call depth last, `IRGenerator+CallDepth.swift`); `{` right after a signature means no
/// attributes, `#` a group, which the `attributes` line says is `alwaysinline`.
@Suite("Sole callees are inlined without being optimised first")
struct SoleCalleeInliningTests {
  static let inlined = "attributes #[[INLINE]] = { alwaysinline }"

  static let cases: [IRCase] = [
    IRCase(
      testDescription: "called once, from a top-level expression", source: "def f(x) x * 2\nf(1)",
      checks: "CHECK: define internal double @f(double %x, i32 %depth) #[[INLINE:[0-9]+]] {\nCHECK: \(inlined)"),
    IRCase(
      testDescription: "called from two places", source: "def f(x) x * 2\nf(1)\nf(2)",
      checks: "CHECK: define internal double @f(double %x, i32 %depth) {"),
    IRCase(
      testDescription: "called once, from a function called twice", source: "def g(x) x + 1\ndef f(x) g(x) * 3\nf(1)\nf(2)",
      checks:
        "CHECK: define internal double @g(double %x, i32 %depth) #[[INLINE:[0-9]+]] {\nCHECK: define internal double @f(double %x, i32 %depth) {\nCHECK: \(inlined)"
    ),
    IRCase(
      testDescription: "recursive: its own call is a second use", source: "def f(x) if x < 1 then 0 else f(x - 1)\nf(3)",
      checks: "CHECK: define internal double @f(double %x, i32 %depth) {"),
    IRCase(
      testDescription: "an operator used once", source: "def binary% 60 (a b) a - b\n5 % 2",
      checks:
        "CHECK: define internal double @\"binary%\"(double %a, double %b, i32 %depth) #[[INLINE:[0-9]+]] {\n"
        + "CHECK: \(inlined)"),
    IRCase(
      testDescription: "too large to force", source: "def f(x) " + String(repeating: "x + ", count: 1_200) + "x\nf(1)",
      checks: "CHECK: define internal double @f(double %x, i32 %depth) {"),
  ]

  @Test(arguments: cases)
  func reachableProgram(_ testCase: IRCase) throws {
    let ir = try IRCase.unoptimizedIR(testCase.source, selection: .reachable)
    #expect(try FileCheck.failure(of: ir, checks: testCase.checks) == nil)
  }

  /// A tier's module (`TierCompiler.emit`) marks its private copies the same way: `step`,
  /// called once in the loop, and not `twice`, called from two places.
  @Test func tierModule() throws {
    let source = """
      def step(x) x * 2
      def twice(x) x + 1
      def fill(n) var t = 0 in (for i = 0, i < n in t = t + step(i) + twice(i) + twice(t)) + t
      fill(3)
      """
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors)
    let program = result.program
    let copies = try ["step", "twice"].map { try #require(program.body(ofFunction: $0)) }
    let fill = try #require(program.body(ofFunction: "fill"))
    let loop = try #require(fill.loops.first)
    let ir = try LargeStack.run { () throws -> String in
      let module = Module(name: "tier", context: Context())
      let generator = IRGenerator(
        program: program, module: module, options: CompileOptions(optimization: .none),
        linking: .tiered(copies: Set(copies.compactMap(\.function)), fixed: .init()), unresolved: [])
      // Where the code's address would go; emitting never touches it.
      let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
      defer { slot.deallocate() }
      let entry = ModuleEntry(slot: slot) { generator in
        generator.emitLoopContinuation(named: "tier.loop", loop: loop, of: fill, forUsualFrames: true)
        return "tier.loop"
      }
      #expect(TierCompiler.emit(copies, entries: [entry], with: generator) == ["tier.loop"])
      try module.verify()
      return module.text
    }
    let checks = """
      CHECK: define internal double @tier.step(double %x, i32 %depth) #[[INLINE:[0-9]+]] {
      CHECK: define internal double @tier.twice(double %x, i32 %depth) {
      CHECK: \(Self.inlined)
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// `ir` and object files keep every definition external and visible: nothing is forced.
  @Test func wholeModuleForIR() throws {
    let ir = try IRCase.unoptimizedIR("def f(x) x * 2\nf(1)", selection: .all)
    #expect(try FileCheck.failure(of: ir, checks: "CHECK: define double @f(double %x) {") == nil)
  }
}
