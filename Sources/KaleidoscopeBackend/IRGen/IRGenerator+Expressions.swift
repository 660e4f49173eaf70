import CLLVM
import KaleidoscopeFrontend

/// Expressions: each node becomes instructions at the builder's position.
extension IRGenerator {
  /// Emits an expression and returns its value. Recursion is bounded by the parser's nesting
  /// limit; chains of binary operators are walked iteratively.
  func emit(_ id: ExprID) -> LLVMValueRef {
    if let debugInfo, let debugScope {
      LLVMSetCurrentDebugLocation2(builder.reference, debugInfo.location(at: tree.start(of: id), in: debugScope))
    }
    switch tree[id] {
    case .number(let value):
      return LLVMConstReal(double, value)
    case .variable:
      return LLVMBuildLoad2(builder.reference, double, locals[Int(program.local(of: id).index)], "")
    case .unary(_, let operand):
      let value = emit(operand)
      if let callee = program.callee(of: id) { return call(callee, [value]) }
      return LLVMBuildFNeg(builder.reference, value, "neg")
    case .binary:
      return emitBinaryChain(id)
    case .assign(_, let valueExpr):
      let value = emit(valueExpr)
      LLVMBuildStore(builder.reference, value, locals[Int(program.local(of: id).index)])
      return value
    case .call(_, let list):
      let arguments = tree.arguments(list).map { emit($0) }
      return call(program.callee(of: id)!, arguments)
    case .ifElse(let condition, let then, let otherwise):
      return emitIf(condition: condition, then: then, otherwise: otherwise)
    case .forLoop(let index):
      return emitFor(tree.forLoop(index), variable: locals[Int(program.loopVariable(of: id).index)])
    case .varIn(let index):
      let varIn = tree.varIn(index)
      for (binding, local) in zip(tree.bindings(of: varIn), program.bindingLocals(of: varIn)) {
        let initial = binding.initializer.map { emit($0) } ?? LLVMConstReal(double, 0)
        LLVMBuildStore(builder.reference, initial, locals[Int(local.index)])
      }
      return emit(varIn.body)
    case .error:
      preconditionFailure("a program with errors is never compiled")
    }
  }

  private func emitBinaryChain(_ id: ExprID) -> LLVMValueRef {
    let base = spine.count
    var current = id
    while case .binary(_, let lhs, _) = tree[current] {
      spine.append(current)
      current = lhs
    }
    var value = emit(current)
    while spine.count > base {
      let node = spine.removeLast()
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      let right = emit(rhs)
      if let debugInfo, let debugScope {
        LLVMSetCurrentDebugLocation2(builder.reference, debugInfo.location(at: tree.start(of: node), in: debugScope))
      }
      value = emitBinary(op, value, right, at: node)
    }
    return value
  }

  private func emitBinary(_ op: UInt8, _ lhs: LLVMValueRef, _ rhs: LLVMValueRef, at id: ExprID) -> LLVMValueRef {
    if let callee = program.callee(of: id) { return call(callee, [lhs, rhs]) }
    let b = builder.reference
    switch op {
    case UInt8(ascii: "+"): return LLVMBuildFAdd(b, lhs, rhs, "add")
    case UInt8(ascii: "-"): return LLVMBuildFSub(b, lhs, rhs, "sub")
    case UInt8(ascii: "*"): return LLVMBuildFMul(b, lhs, rhs, "mul")
    case UInt8(ascii: "/"): return LLVMBuildFDiv(b, lhs, rhs, "div")
    case UInt8(ascii: "<"):
      // As the reference does: unordered-or-less-than, then 0.0 or 1.0.
      let bit = LLVMBuildFCmp(b, LLVMRealULT, lhs, rhs, "cmp")
      return LLVMBuildUIToFP(b, bit, double, "bool")
    default:
      preconditionFailure("sema resolves every other operator to a function")
    }
  }

  private func call(_ callee: FunctionID, _ arguments: [LLVMValueRef]) -> LLVMValueRef {
    let type = functionType(arity: arguments.count)
    let target: LLVMValueRef
    if case .interactive(let slotName, _) = linking, program.functions[callee].origin == .defined {
      target = LLVMBuildLoad2(builder.reference, LLVMPointerTypeInContext(context, 0), slot(slotName(program.functions[callee].spelling)), "callee")
    } else {
      target = llvmFunction(callee)
    }
    var values = arguments.map { Optional($0) }
    return values.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, type, target, $0.baseAddress, UInt32(arguments.count), "call")
    }
  }

  /// The external global that holds a REPL function's current address.
  private func slot(_ name: String) -> LLVMValueRef {
    if let existing = LLVMGetNamedGlobal(module.reference, name) { return existing }
    return LLVMAddGlobal(module.reference, LLVMPointerTypeInContext(context, 0), name)
  }

  /// Defines (rather than declares) a slot in this module, initially null.
  func defineSlot(_ name: String) {
    let global = slot(name)
    LLVMSetInitializer(global, LLVMConstNull(LLVMPointerTypeInContext(context, 0)))
  }

  private func truth(_ value: LLVMValueRef, _ name: String) -> LLVMValueRef {
    LLVMBuildFCmp(builder.reference, LLVMRealONE, value, LLVMConstReal(double, 0), name)
  }

  private func block(_ name: String) -> LLVMBasicBlockRef {
    LLVMAppendBasicBlockInContext(context, function, name)
  }

  private func emitIf(condition: ExprID, then: ExprID, otherwise: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let test = truth(emit(condition), "ifcond")
    let thenBlock = block("then")
    let elseBlock = block("else")
    let merge = block("ifcont")
    LLVMBuildCondBr(b, test, thenBlock, elseBlock)

    LLVMPositionBuilderAtEnd(b, thenBlock)
    let thenValue = emit(then)
    let thenEnd = LLVMGetInsertBlock(b)
    LLVMBuildBr(b, merge)

    LLVMPositionBuilderAtEnd(b, elseBlock)
    let elseValue = emit(otherwise)
    let elseEnd = LLVMGetInsertBlock(b)
    LLVMBuildBr(b, merge)

    LLVMPositionBuilderAtEnd(b, merge)
    let phi = LLVMBuildPhi(b, double, "iftmp")!
    var values: [LLVMValueRef?] = [thenValue, elseValue]
    var blocks: [LLVMBasicBlockRef?] = [thenEnd, elseEnd]
    LLVMAddIncoming(phi, &values, &blocks, 2)
    return phi
  }

  private func emitFor(_ loop: ForLoop, variable: LLVMValueRef) -> LLVMValueRef {
    let b = builder.reference
    LLVMBuildStore(b, emit(loop.start), variable)
    switch options.forSemantics {
    case .current:
      // i = start; while end != 0 { body; i = i + step }
      let condition = block("loopcond")
      let body = block("loop")
      let after = block("afterloop")
      LLVMBuildBr(b, condition)
      LLVMPositionBuilderAtEnd(b, condition)
      LLVMBuildCondBr(b, truth(emit(loop.end), "loopcond"), body, after)
      LLVMPositionBuilderAtEnd(b, body)
      _ = emit(loop.body)
      let step = loop.step.map { emit($0) } ?? LLVMConstReal(double, 1)
      let current = LLVMBuildLoad2(b, double, variable, tree.text(loop.variable))
      LLVMBuildStore(b, LLVMBuildFAdd(b, current, step, "nextvar"), variable)
      LLVMBuildBr(b, condition)
      LLVMPositionBuilderAtEnd(b, after)
    case .legacy:
      // i = start; loop { body; s = step; c = end; i = i + s; if c == 0 { break } }
      let body = block("loop")
      let after = block("afterloop")
      LLVMBuildBr(b, body)
      LLVMPositionBuilderAtEnd(b, body)
      _ = emit(loop.body)
      let step = loop.step.map { emit($0) } ?? LLVMConstReal(double, 1)
      let end = emit(loop.end)
      let current = LLVMBuildLoad2(b, double, variable, tree.text(loop.variable))
      LLVMBuildStore(b, LLVMBuildFAdd(b, current, step, "nextvar"), variable)
      LLVMBuildCondBr(b, truth(end, "loopcond"), body, after)
      LLVMPositionBuilderAtEnd(b, after)
    }
    return LLVMConstReal(double, 0)
  }
}
