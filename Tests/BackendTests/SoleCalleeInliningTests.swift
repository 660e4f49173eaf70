import KaleidoscopeBackend
import KaleidoscopeFrontend
import TestSupport
import Testing

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

  /// `ir` and object files keep every definition external and visible: nothing is forced.
  @Test func wholeModuleForIR() throws {
    let ir = try IRCase.unoptimizedIR("def f(x) x * 2\nf(1)", selection: .all)
    #expect(try FileCheck.failure(of: ir, checks: "CHECK: define double @f(double %x) {") == nil)
  }
}
