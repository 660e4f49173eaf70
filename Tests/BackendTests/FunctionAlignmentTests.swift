import Foundation
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

  /// What `build` writes starts each innermost loop on a 64-byte boundary too
  /// (`ObjectEmitter.innermostLoopsAligned`), here the header its back edge jumps to.
  @Test func buildsInnermostLoopsStartOnA64ByteBoundary() throws {
    let ir = """
      define void @clear(ptr %p, i64 %n) {
      entry:
        br label %loop
      loop:
        %i = phi i64 [ 0, %entry ], [ %next, %loop ]
        %a = getelementptr double, ptr %p, i64 %i
        store double 0.0, ptr %a
        %next = add i64 %i, 1
        %done = icmp eq i64 %next, %n
        br i1 %done, label %exit, label %loop
      exit:
        ret void
      }
      """
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("loops-\(UUID()).s").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try LargeStack.run { () throws in
      let module = try Module(parsing: ir, context: Context())
      try ObjectEmitter.write(module, kind: .asm, to: path, machine: TargetMachine(triple: "x86_64-linux-gnu"))
    }
    let checks = """
      CHECK: .type clear,@function
      CHECK: .p2align 6
      CHECK-NEXT: .LBB0_1:
      CHECK: jne .LBB0_1
      """
    let assembly = try String(contentsOfFile: path, encoding: .utf8)
    #expect(try FileCheck.failure(of: assembly, checks: checks) == nil, "\(assembly)")
  }
}
