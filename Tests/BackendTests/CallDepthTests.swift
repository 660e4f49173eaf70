import KaleidoscopeBackend
import KaleidoscopeFrontend
import TestSupport
import Testing

/// The call depth check of a run program's functions (`IRGenerator+CallDepth.swift`): how
/// its report of a call too deep ends a block, and what LLVM makes of that.
@Suite("Call depth checks")
struct CallDepthTests {
  static let fib = "def fib(x) if x < 3 then 1 else fib(x - 1) + fib(x - 2)\nfib(30)"

  /// A function's report is its result, from a tail call.
  @Test func aFunctionsReportIsItsResult() throws {
    let ir = try Self.module(Self.fib, optimization: .none).text
    let checks = """
      CHECK-LABEL: define internal double @fib(double %x, i32 %depth)
      CHECK: depth.error:
      CHECK-NEXT: [[REPORT:%[0-9]+]] = tail call double @ks_call_depth_error_as_result(ptr @site)
      CHECK-NEXT: ret double [[REPORT]]
      CHECK: declare double @ks_call_depth_error_as_result(ptr) #[[REPORTS:[0-9]+]]
      CHECK: attributes #[[REPORTS]] = { cold nounwind }
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// A loop's code, which returns no double, stops at the report.
  @Test func aLoopsCodeStopsAtTheReport() throws {
    let ir = try LoopContinuationTests.innerLoopContinuation(
      of: "def f(x) x\ndef fill() for i = 0, i < 10 in f(i)\nfill()\n")
    let checks = """
      CHECK-LABEL: define i32 @tier.loop(ptr %0, i32 %depth)
      CHECK: depth.error:
      CHECK-NEXT: call void @ks_call_depth_error(ptr @site)
      CHECK-NEXT: unreachable
      CHECK: declare void @ks_call_depth_error(ptr) #[[STOPS:[0-9]+]]
      CHECK: attributes #[[STOPS]] = { cold noreturn nounwind }
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// The base case of a recursive function returns before it saves a register or makes a
  /// stack frame, as its C twin's does: LLVM shrink-wraps the frame around the calls, which
  /// a report ending in `unreachable` kept it from doing.
  @Test func aBaseCaseReturnsWithoutAFrame() throws {
    let assembly = try LargeStack.run { () throws -> String in
      let machine = try TargetMachine(triple: "x86_64-linux-gnu", optimization: .standard)
      let module = try Self.module(Self.fib, optimization: .standard, machine: machine)
      return try ObjectEmitter.assembly(of: module, machine: machine)
    }
    let checks = """
      CHECK-LABEL: {{^}}fib:
      CHECK-NOT: {{push|%rsp}}
      CHECK: ret
      CHECK: push
      CHECK: ret
      CHECK: jmp {{.*}}ks_call_depth_error_as_result
      """
    #expect(try FileCheck.failure(of: assembly, checks: checks) == nil)
  }

  /// The module `run` and executables compile for `source`.
  static func module(_ source: String, optimization: OptimizationLevel, machine: TargetMachine? = nil) throws -> Module {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors)
    return try LargeStack.run { () throws -> Module in
      try Pipeline.module(
        for: result.program, in: Context(), for: machine ?? TargetMachine(optimization: optimization),
        options: CompileOptions(optimization: optimization), selection: .reachable)
    }
  }
}
