import KaleidoscopeBackend
import KaleidoscopeFrontend
import TestSupport
import Testing

/// A whole program run here has as constants the globals it declares before any code runs
/// (`FixedGlobals.init(declaredFirstIn:)`): a number that nothing assigns, an array's
/// length. Each case's unoptimised IR of `f` is matched by FileCheck: a constant is written
/// into the code, a global still read is a load from its cell.
@Suite("Globals declared before any code are constants in a whole program")
struct FixedGlobalsTests {
  /// `f`'s body, from its signature to its closing brace.
  static func body(_ lines: String...) -> String {
    (["CHECK-LABEL: define internal double @f("] + lines + ["CHECK-LABEL: {{^}}}"]).joined(separator: "\n")
  }

  /// A load of the length of the global array `a`.
  static let lengthOfA = "load i64, ptr getelementptr inbounds ({ ptr, i64 }, ptr @a, i32 0, i32 1)"

  static let cases: [IRCase] = [
    IRCase(
      testDescription: "a number and an array's length, declared first",
      source: "var n = 8\nvar a[10]\ndef f(i) a[i] + n + len(a)\nf(1)\nf(2)",
      checks: body(
        "CHECK-NOT: \(lengthOfA)", "CHECK: icmp ult i64 %counter, 10", "CHECK-NOT: load double, ptr @n",
        "CHECK: fadd double %{{.*}}, 8.000000e+00", "CHECK-NOT: \(lengthOfA)", "CHECK: fadd double %{{.*}}, 1.000000e+01")),
    IRCase(
      testDescription: "a string's and a literal's lengths",
      source: "var s[] = \"abc\", p[] = [1, -2]\ndef f() len(s) * len(p)\nf()\nf()",
      checks: body("CHECK-NOT: load i64", "CHECK: ret double 6.000000e+00")),
    IRCase(
      testDescription: "declared after a top-level expression, which may call the function first",
      source: "def f() len(a)\nf()\nvar a[10]\nf()",
      checks: body("CHECK: \(lengthOfA)")),
    IRCase(
      testDescription: "a number that a function assigns",
      source: "var n = 8\ndef g() n = 3\ndef f() n\ng() + f()\nf()",
      checks: body("CHECK: load double, ptr @n")),
    IRCase(
      testDescription: "an array whose length is read from a global: its declaration runs code",
      source: "var n = 8\nvar a[n]\ndef f() len(a) + n\nf()\nf()",
      checks: body("CHECK: \(lengthOfA)", "CHECK-NOT: load double, ptr @n", "CHECK: fadd double %{{.*}}, 8.000000e+00")),
    IRCase(
      testDescription: "declared after one that calls a function",
      source: "def g() 2\nvar m = g()\nvar a[10]\ndef f() len(a)\nf()\nf()",
      checks: body("CHECK: \(lengthOfA)")),
  ]

  @Test(arguments: cases)
  func reachableProgram(_ testCase: IRCase) throws {
    let ir = try IRCase.unoptimizedIR(testCase.source, selection: .reachable)
    let failure = try FileCheck.failure(of: ir, checks: testCase.checks)
    #expect(failure == nil, "\(failure ?? "")\n\(ir)")
  }

  /// `ir` and object files are deliverables whose functions other code may call before
  /// `main` has declared anything; with debug information, a debugger may set a global.
  /// Both read every global.
  @Test(arguments: [(Pipeline.Selection.all, false), (.reachable, true)])
  func readsEveryGlobal(selection: Pipeline.Selection, debugInfo: Bool) throws {
    let ir = try IRCase.unoptimizedIR(
      "var n = 8\nvar a[10]\ndef f() len(a) + n\nf()\nf()", selection: selection, debugInfo: debugInfo)
    let checks = "CHECK-LABEL: define {{.*}}double @f(\nCHECK: \(Self.lengthOfA)\nCHECK: load double, ptr @n\nCHECK-LABEL: {{^}}}"
    let failure = try FileCheck.failure(of: ir, checks: checks)
    #expect(failure == nil, "\(failure ?? "")\n\(ir)")
  }
}
