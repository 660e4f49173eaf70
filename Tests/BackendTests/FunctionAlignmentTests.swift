import KaleidoscopeBackend
import KaleidoscopeFrontend
import TestSupport
import Testing

/// Machine code starts every function on a 64-byte boundary, so that a small hot function's
/// speed does not depend on the size of the code before it (`ObjectEmitter.alignFunctions`).
@Suite("Function alignment")
struct FunctionAlignmentTests {
  static let ir = """
    define double @twice(double %x) {
      %y = fadd double %x, %x
      ret double %y
    }
    define double @thrice(double %x) {
      %y = fmul double %x, 3.0
      ret double %y
    }
    declare double @elsewhere(double)
    """

  /// The path the JIT and the tiers take: a module compiled in memory.
  @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
  func everyDefinedFunctionStartsOnA64ByteBoundary(triple: String) throws {
    let assembly = try LargeStack.run { () throws -> String in
      try ObjectEmitter.assembly(ofIR: Self.ir, machine: TargetMachine(triple: triple, optimization: .standard))
    }
    let checks = """
      CHECK: .p2align 6
      CHECK-NEXT: .type twice,@function
      CHECK: .p2align 6
      CHECK-NEXT: .type thrice,@function
      """
    #expect(try FileCheck.failure(of: assembly, checks: checks) == nil)
  }
}
