import CLLVM
import KaleidoscopeFrontend

/// Locals that step by one (`IndexFacts.steppedLocals`): a count that nothing bounds and
/// that a loop's test compares, such as `i` in `while i < n in ... i = i + 1`, lives in an
/// `i64` copy, stepped with an integer addition, and every read of it converts the copy. In
/// a double it would carry a chain of floating-point additions through the loop, and its
/// test would compare doubles.
///
/// The copy computes the very doubles the program does: a stepped local holds whole numbers
/// from -2^53 to 2^53 and never -0, each exact in a double and in the copy; a double stepped
/// by one stops at ±2^53 (2^53 + 1 rounds to 2^53, ties going to the even neighbour), so
/// the copy's step stops there too.
extension IRGenerator {
  /// The bits of a stepped local's magnitude: at most 2^53, so below 2^54. `ExactArithmetic`
  /// computes nothing more from it (it keeps every value below 2^53), but a comparison may
  /// take it as it is.
  static let steppedBits = ExactArithmetic.exactBits + 1

  /// Where a double stepped by one stops.
  private static let stepLimit = Int64(1) << 53

  /// A stepped local read as a double: its copy, converted (exactly).
  func steppedValue(_ local: LocalID) -> LLVMValueRef? {
    guard indices.current.steppedLocals.contains(local.index), let copy = integerLocals[Int(local.index)] else {
      return nil
    }
    let b = builder.reference
    return LLVMBuildSIToFP(b, LLVMBuildLoad2(b, int64, copy, "stepped")!, double, "")!
  }

  /// `variable = value` when `value` steps a stepped local by one: the copy moves by one
  /// unless it is at 2^53 (or -2^53, stepping down), where the double stops, and the double
  /// stored (and returned) is the copy's. Nil for any other assignment.
  ///
  /// The stop is written as adding the comparison's bit, `x + (x < 2^53)`, which x86 does
  /// with a compare and an add-with-carry: as a minimum, a conditional move, it lengthened
  /// the chain through the local, and LLVM turns a branch into this form anyway.
  func emitUnitStep(_ value: ExprID, into variable: VariableReference) -> LLVMValueRef? {
    guard case .local(let local) = variable, indices.current.steppedLocals.contains(local.index),
      case .binary(let op, _, _) = tree[value], ExactArithmetic.isUnitStep(value, of: local, in: program),
      let copy = integerLocals[Int(local.index)]
    else { return nil }
    let b = builder.reference
    let up = op == UInt8(ascii: "+")
    let old = LLVMBuildLoad2(b, int64, copy, "stepped")!
    let limit = LLVMConstInt(int64, UInt64(bitPattern: up ? Self.stepLimit : -Self.stepLimit), 1)!
    let moves = LLVMBuildICmp(b, up ? LLVMIntSLT : LLVMIntSGT, old, limit, "moves")!
    let step = LLVMBuildZExt(b, moves, int64, "")!
    let next = up ? LLVMBuildNSWAdd(b, old, step, "")! : LLVMBuildNSWSub(b, old, step, "")!
    LLVMBuildStore(b, next, copy)
    let result = LLVMBuildSIToFP(b, next, double, "")!
    storeNumber(result, into: locals[Int(local.index)])
    return result
  }
}
