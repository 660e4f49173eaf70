import CLLVM
import KaleidoscopeFrontend

/// Definitions called from exactly one place are inlined without being optimised on their own.
extension IRGenerator {
  /// The most instructions a definition may have for `inlineSoleCallees` to mark it: well
  /// inside what LLVM's inliner grants a sole call to an internal function, so that marking
  /// never forces an inlining LLVM would refuse.
  static let soleCalleeInstructionLimit = 1_000

  /// Marks `alwaysinline` every internal definition that the module calls from exactly one
  /// place, outside itself, and that has at most `soleCalleeInstructionLimit` instructions.
  ///
  /// The inliner would inline such a function anyway, but only after simplifying it on its
  /// own, work that simplifying its caller then repeats on the inlined copy; marking it skips
  /// the first round. Top-level expressions are marked when they are emitted, for the same
  /// reason.
  func inlineSoleCallees() {
    for (index, function) in functions.enumerated() {
      // Called for the reachable program and for the tiers' modules: an internal function
      // here is one whose body was emitted (what a module calls elsewhere is external).
      guard let value = function, program.functions.symbols[index].origin == .defined,
        LLVMGetLinkage(value) == LLVMInternalLinkage,
        let use = LLVMGetFirstUse(value), LLVMGetNextUse(use) == nil,
        let call = LLVMIsACallInst(LLVMGetUser(use)), LLVMGetCalledValue(call) == value,
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) != value,
        Self.instructionCount(of: value, upTo: Self.soleCalleeInstructionLimit) <= Self.soleCalleeInstructionLimit
      else { continue }
      addAttribute("alwaysinline", to: value)
    }
  }

  /// The number of instructions in `function`, counting stops past `limit`.
  private static func instructionCount(of function: LLVMValueRef, upTo limit: Int) -> Int {
    var count = 0
    var block = LLVMGetFirstBasicBlock(function)
    while let current = block, count <= limit {
      var instruction = LLVMGetFirstInstruction(current)
      while let item = instruction {
        count += 1
        instruction = LLVMGetNextInstruction(item)
      }
      block = LLVMGetNextBasicBlock(current)
    }
    return count
  }
}
