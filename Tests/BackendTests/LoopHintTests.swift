import KaleidoscopeBackend
import KaleidoscopeFrontend
import TestSupport
import Testing

/// A loop whose iterations run another loop, written inside it or reached through its calls,
/// tells LLVM not to unroll it by a count known only at run time
/// (`IRGenerator+LoopHints.swift`); an innermost loop says nothing. Each case's unoptimised
/// IR of `f` is matched by FileCheck: `f`'s loop (its top is `%loopcond`, its back edge the
/// last branch of `f`) carries the hint or nothing, and no other loop of `f` does.
@Suite("Loops that enclose loops are not unrolled by a run-time count")
struct LoopHintTests {
  /// `f`'s own loop carries the hint, and its other loops do not.
  static let hinted = [
    "CHECK-LABEL: define internal double @f(", "CHECK-NOT: !llvm.loop",
    "CHECK: br label %loopcond, !llvm.loop ![[LOOP:[0-9]+]]", "CHECK-NOT: !llvm.loop",
    "CHECK-LABEL: define", "CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[HINT:[0-9]+]]}",
    "CHECK: ![[HINT]] = !{!\"llvm.loop.unroll.runtime.disable\"}",
  ].joined(separator: "\n")

  /// No loop of `f` carries a hint.
  static let plain = ["CHECK-LABEL: define internal double @f(", "CHECK-NOT: !llvm.loop", "CHECK-LABEL: {{^}}}"]
    .joined(separator: "\n")

  /// A function with a loop of its own, for the cases to call.
  static let sum = "def sum(n) var s = 0 in (for j = 0, j < n in s = s + j) : s\n"

  static let cases: [IRCase] = [
    IRCase(
      testDescription: "a for loop around a for loop",
      source: "def f(n) var t = 0 in (for i = 0, i < n in for j = 0, j < i in t = t + j) + t\nf(3)\nf(4)",
      checks: hinted),
    IRCase(
      testDescription: "a while loop around a for loop",
      source: "def f(n) var t = 0 in (while t < n in for j = 0, j < 3 in t = t + 1) + t\nf(3)\nf(4)",
      checks: hinted),
    IRCase(
      testDescription: "a loop calling a function that loops",
      source: "def binary : 1 (x y) y\n\(sum)def f(n) var t = 0 in (for i = 0, i < n in t = t + sum(i)) : t\nf(3)\nf(4)",
      checks: hinted),
    IRCase(
      testDescription: "a loop reaching a loop through two calls",
      source: "def binary : 1 (x y) y\n\(sum)def g(n) sum(n) * 2\n"
        + "def f(n) var t = 0 in (for i = 0, i < n in t = t + g(i)) : t\nf(3)\nf(4)",
      checks: hinted),
    IRCase(
      testDescription: "a loop whose test calls a function that loops",
      source: "def binary : 1 (x y) y\n\(sum)def f(n) var t = 0 in (while t < sum(n) in t = t + 1) : t\nf(3)\nf(4)",
      checks: hinted),
    IRCase(
      testDescription: "an innermost loop calling an operator without loops",
      source: "def binary : 1 (x y) y\ndef f(n) var t = 0 in (for i = 0, i < n in (t = t + i) : t) : t\nf(3)\nf(4)",
      checks: plain),
    IRCase(
      testDescription: "a loop whose start calls a function that loops: it runs once",
      source: "def binary : 1 (x y) y\n\(sum)def f(n) var t = 0 in (for i = sum(n), i < 10 in t = t + i) : t\nf(3)\nf(4)",
      checks: plain),
  ]

  @Test(arguments: cases)
  func reachableProgram(_ testCase: IRCase) throws {
    let ir = try IRCase.unoptimizedIR(testCase.source, selection: .reachable)
    let failure = try FileCheck.failure(of: ir, checks: testCase.checks)
    #expect(failure == nil, "\(failure ?? "")\n\(ir)")
  }
}
