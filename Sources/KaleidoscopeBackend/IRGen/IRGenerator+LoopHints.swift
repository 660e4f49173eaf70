import CLLVM
import KaleidoscopeFrontend

/// What a loop's IR tells LLVM beyond its instructions.
///
/// When the scheduling model it tunes for gives a loop buffer (the generic model's is
/// small, znver3's large), LLVM's `-O2` unrolls a loop whose trip count is known only at
/// run time whenever the unrolled body fits the buffer; once a callee's loop is inlined,
/// the loop around it may fit too. The inner loop is then copied over for no gain (its
/// iterations are the work), and every later pass and the code generator pay for each
/// copy. The modules of tiered execution, whose loops start from the interpreter's frame,
/// always have such counts. So a loop whose iterations run another loop is marked
/// `llvm.loop.unroll.runtime.disable`; an innermost loop keeps LLVM's choice, and a
/// constant trip count is not affected (docs/DESIGN.md).
extension IRGenerator {
  /// Whether an iteration of `loop` runs another loop: one written in its test, step or
  /// body, or one in a function called there, directly or through that function's calls.
  func enclosesLoop(_ loop: Loop) -> Bool {
    let repeated: [ExprID?]
    switch loop {
    case .forLoop(let parts): repeated = [parts.end, parts.step, parts.body]
    case .whileLoop(let parts): repeated = [parts.condition, parts.body]
    }
    return repeated.compactMap { $0 }.contains { part in
      program.tree.contains(SyntaxNode(.expr(part))) { candidate in
        guard case .expr(let id) = candidate.reference else { return false }
        return runsLoop(id)
      }
    }
  }

  /// Whether the node is a loop, or a call of a function that runs one.
  private func runsLoop(_ node: ExprID) -> Bool {
    switch program.tree[node] {
    case .loop: return true
    case .call, .unary, .binary: return program.callee(of: node).map { loopingFunctions[Int($0.index)] } ?? false
    case .number, .variable, .assign, .ifElse, .varIn, .element, .storeElement, .length, .arrayLiteral, .string,
      .globalDeclaration, .error:
      return false
    }
  }

  /// Whether each function (by `FunctionID.index`) runs a loop, in its body or in a function
  /// it calls, directly or not: the loops propagated from each body to its callers.
  static func loopingFunctions(in program: CheckedProgram) -> [Bool] {
    let count = program.functions.symbols.count
    var loops = [Bool](repeating: false, count: count)
    var callers = [[FunctionID]](repeating: [], count: count)
    var work: [FunctionID] = []
    for body in program.bodies {
      guard let function = body.function else { continue }
      for callee in body.callees { callers[Int(callee.index)].append(function) }
      if body.hasLoop, !loops[Int(function.index)] {
        loops[Int(function.index)] = true
        work.append(function)
      }
    }
    while let function = work.popLast() {
      for caller in callers[Int(function.index)] where !loops[Int(caller.index)] {
        loops[Int(caller.index)] = true
        work.append(caller)
      }
    }
    return loops
  }

  /// Marks `backEdge`, the branch that ends a loop's iteration, so that LLVM does not unroll
  /// the loop by a count known only at run time. The loop's identity is a node that names
  /// itself first, as LLVM requires, made through a placeholder.
  func forbidRuntimeUnrolling(of backEdge: LLVMValueRef) {
    let hint = "llvm.loop.unroll.runtime.disable"
    var hintOperands: [LLVMMetadataRef?] = [LLVMMDStringInContext2(context, hint, hint.utf8.count)]
    let placeholder = LLVMTemporaryMDNode(context, nil, 0)
    var operands: [LLVMMetadataRef?] = [placeholder, LLVMMDNodeInContext2(context, &hintOperands, 1)]
    let loopID = LLVMMDNodeInContext2(context, &operands, 2)!
    LLVMMetadataReplaceAllUsesWith(placeholder, loopID)
    let kind = "llvm.loop"
    LLVMSetMetadata(
      backEdge, LLVMGetMDKindIDInContext(context, kind, UInt32(kind.utf8.count)), LLVMMetadataAsValue(context, loopID))
  }
}
