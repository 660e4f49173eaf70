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
      let variable = program.variable(of: id)
      if case .global(let global) = variable, let value = fixedValue(of: global) { return LLVMConstReal(double, value) }
      if case .local(let local) = variable, let small = smallIntegral(local) ?? steppedValue(local) ?? counterValue(local) {
        return small
      }
      return loadNumber(from: storage(of: variable))
    case .unary(_, let operand):
      let value = emit(operand)
      if let callee = program.callee(of: id) { return call(callee, [value], site: id) }
      return LLVMBuildFNeg(builder.reference, value, "neg")
    case .binary:
      return emitExactly(id) ?? emitBinaryChain(id)
    case .assign(let target, let valueExpr):
      if let stepped = emitUnitStep(valueExpr, into: program.variable(of: target)) { return stepped }
      let value = emit(valueExpr)
      let variable = program.variable(of: target)
      storeIntegral(value, of: valueExpr, into: variable)
      storeNumber(value, into: storage(of: variable))
      return value
    case .call(_, let list):
      return emitCall(program.callee(of: id)!, arguments: tree.arguments(list), at: id)
    case .ifElse(let condition, let then, let otherwise):
      return emitIf(condition: condition, then: then, otherwise: otherwise)
    case .loop(let index):
      return emitLoop(tree.loop(index), at: id)
    case .varIn(let index):
      let varIn = tree.varIn(index)
      var arrays: [LLVMValueRef] = []
      for (binding, local) in zip(tree.bindings(varIn.bindings), program.bindingLocals(of: varIn)) {
        if let elements = emitValue(of: binding, into: locals[Int(local.index)], local: local) { arrays.append(elements) }
      }
      let value = emit(varIn.body)
      // A local array lives until its `var` body ends.
      for elements in arrays { freeArray(elements) }
      return value
    case .element(let array, let index):
      return loadElement(at: elementPointer(of: array, index: index, node: id), node: id)
    case .storeElement(let array, let index, let valueExpr):
      // The index, then the value, then the check and the store, as in every engine. An
      // index computed in integers reads only variables the value cannot assign: the check
      // may come with it.
      if integerBits(index) != nil {
        let position = emitInteger(index)
        let value = emit(valueExpr)
        storeElement(value, at: elementPointer(of: array, position: position, index: index, node: id), node: id)
        return value
      }
      let position = emit(index)
      let value = emit(valueExpr)
      storeElement(value, at: elementPointer(of: array, at: position, node: id), node: id)
      return value
    case .length:
      let count = loadArray(of: program.variable(of: id)).count
      return LLVMBuildUIToFP(builder.reference, count, double, "length")
    case .arrayLiteral, .string:
      preconditionFailure("sema allows literals only as array initialisers and arguments")
    case .globalDeclaration(let index):
      for binding in tree.bindings(tree.globalDeclaration(index)) {
        guard let global = program.globals.lookup(binding.name) else { continue }
        let storage = globalVariable(global)
        // A global array declared again (in the REPL) frees the array it held before.
        let previous = program.globals[global].kind == .array ? loadArray(from: storage).elements : nil
        emitValue(of: binding, into: storage, holdsIntegers: holdsIntegers(.global(global)), apart: true)
        if let previous { freeArray(previous) }
      }
      return LLVMConstReal(double, 0)
    case .error:
      preconditionFailure("a program with errors is never compiled")
    }
  }

  private func emitBinaryChain(_ id: ExprID) -> LLVMValueRef {
    let base = spine.count
    var current = id
    // An operand exact in integers is emitted whole (`emitExactly`), not walked.
    while case .binary(_, let lhs, _) = tree[current], current == id || exactValueWorthComputing(current) == nil {
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
    if let callee = program.callee(of: id) { return call(callee, [lhs, rhs], site: id) }
    let b = builder.reference
    switch op {
    case UInt8(ascii: "+"): return LLVMBuildFAdd(b, lhs, rhs, "add")
    case UInt8(ascii: "-"): return LLVMBuildFSub(b, lhs, rhs, "sub")
    case UInt8(ascii: "*"): return LLVMBuildFMul(b, lhs, rhs, "mul")
    case UInt8(ascii: "/"): return LLVMBuildFDiv(b, lhs, rhs, "div")
    case UInt8(ascii: "<"):
      // As the reference does: unordered-or-less-than, then 0.0 or 1.0; in integers when
      // both sides are exact whole numbers there (never NaN: the same answer).
      let bit = integerComparison(at: id) ?? LLVMBuildFCmp(b, LLVMRealULT, lhs, rhs, "cmp")
      return LLVMBuildUIToFP(b, bit, double, "bool")
    default:
      preconditionFailure("sema resolves every other operator to a function")
    }
  }

  /// A call: numbers passed as they are, arrays as their elements and count. An array made
  /// for a literal argument lives until the call returns.
  private func emitCall(_ callee: FunctionID, arguments: ExprIDs, at node: ExprID) -> LLVMValueRef {
    var values: [LLVMValueRef] = []
    var temporaries: [LLVMValueRef] = []
    for (position, (argument, parameter)) in zip(arguments, program.functions[callee].prototype.parameters).enumerated() {
      guard parameter.kind == .array else {
        values.append(emitArgument(argument, to: callee, position: position))
        continue
      }
      let array: (elements: LLVMValueRef, count: LLVMValueRef)
      if case .variable = tree[argument] {
        array = loadArray(of: program.variable(of: argument))
      } else {
        array = makeArray(fromLiteral: argument, name: "literal", at: tree.start(of: argument))
        temporaries.append(array.elements)
      }
      values += [array.elements, array.count]
    }
    let result = call(callee, values, site: node, at: node)
    for elements in temporaries { freeArray(elements) }
    return result
  }

  /// Calls `callee` with its LLVM arguments (an array's two each), from `site`; a call
  /// node's arguments may let it reach a specialised copy.
  private func call(_ callee: FunctionID, _ arguments: [LLVMValueRef], site: ExprID, at node: ExprID? = nil)
    -> LLVMValueRef
  {
    let symbol = program.functions[callee]
    let type = functionType(of: symbol)
    let target: LLVMValueRef
    if case .interactive(let names) = linking, symbol.origin == .defined {
      target = LLVMBuildLoad2(builder.reference, pointer, slot(names.slot(symbol.spelling)), "callee")
    } else {
      target = node.flatMap { specializedCopy(of: callee, at: $0) } ?? llvmFunction(callee)
    }
    // The runtime names the call in the error of an extern that fails, faults or resolved
    // to nothing (whose stub reports it); after it returns, a fault is no longer its.
    let located = symbol.origin == .external && HostLibrary.reportsAtCallSite(symbol.spelling)
    if located { LLVMBuildStore(builder.reference, self.site(tree.start(of: site), name: ""), slot(Symbols.callSite)) }
    var values = arguments.map { Optional($0) }
    if takesDepth(symbol) { values.append(checkedCallDepth(at: site)) }
    let result = values.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, type, target, $0.baseAddress, UInt32($0.count), "call")!
    }
    if located { LLVMBuildStore(builder.reference, LLVMConstNull(pointer), slot(Symbols.callSite)) }
    return result
  }

  /// The external global that holds a REPL function's current address.
  private func slot(_ name: String) -> LLVMValueRef {
    if let existing = LLVMGetNamedGlobal(module.reference, name) { return existing }
    return LLVMAddGlobal(module.reference, pointer, name)
  }

  /// Defines (rather than declares) a slot in this module, initially null.
  func defineSlot(_ name: String) {
    let global = slot(name)
    LLVMSetInitializer(global, LLVMConstNull(pointer))
  }

  func truth(_ value: LLVMValueRef, _ name: String) -> LLVMValueRef {
    LLVMBuildFCmp(builder.reference, LLVMRealONE, value, LLVMConstReal(double, 0), name)
  }

  func block(_ name: String) -> LLVMBasicBlockRef {
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

  /// A loop: what it sets up before its first iteration, then its iterations. Its value is 0.
  private func emitLoop(_ loop: Loop, at node: ExprID) -> LLVMValueRef {
    switch loop {
    case .forLoop(let parts):
      storeNumber(emit(parts.start), into: locals[Int(program.loopVariable(of: node).index)])
    case .whileLoop:
      break
    }
    if let compiled = compiledLoop(at: node) {
      callCompiledLoop(compiled, at: node)
    } else {
      emitIterations(of: loop, at: node, fromStart: true)
    }
    return LLVMConstReal(double, 0)
  }

  /// A loop's iterations, from its start or from the top of one (where tiered execution's
  /// on-stack replacement enters, `emitLoopContinuation`), to the block after the loop.
  func emitIterations(of loop: Loop, at node: ExprID, fromStart: Bool = false) {
    let b = builder.reference
    switch loop {
    case .forLoop(let parts):
      let local = program.loopVariable(of: node)
      let variable = locals[Int(local.index)]
      let step = { parts.step.map { self.emit($0) } ?? LLVMConstReal(self.double, 1) }
      switch options.forSemantics {
      case .current:
        // i = start; while end != 0 { body; i = i + step }
        let integerStep = startIntegerCounter(of: parts, variable: local, fromStart: fromStart)
        let test = integerStep != nil ? { self.integerLoopTest(parts) } : { self.truth(self.emit(parts.end), "loopcond") }
        emitPreTestedLoop(test: test, nests: enclosesLoop(loop)) {
          if integerStep != nil {
            self.withCounterRange(of: parts, local: local) { _ = self.emit(parts.body) }
          } else {
            _ = self.emit(parts.body)
          }
          self.storeNumber(LLVMBuildFAdd(b, self.loadNumber(from: variable), step(), "nextvar"), into: variable)
          if let integerStep { self.stepIntegerCounter(local, by: integerStep) }
        }
        activeCounters[local.index] = nil
      case .legacy:
        // i = start; loop { body; s = step; c = end; i = i + s; if c == 0 { break } }
        let body = block("loop")
        let after = block("afterloop")
        LLVMBuildBr(b, body)
        LLVMPositionBuilderAtEnd(b, body)
        _ = emit(parts.body)
        let stepValue = step()
        let end = emit(parts.end)
        storeNumber(LLVMBuildFAdd(b, loadNumber(from: variable), stepValue, "nextvar"), into: variable)
        let backEdge = LLVMBuildCondBr(b, truth(end, "loopcond"), body, after)!
        if enclosesLoop(loop) { forbidRuntimeUnrolling(of: backEdge) }
        LLVMPositionBuilderAtEnd(b, after)
      }
    case .whileLoop(let parts):
      emitPreTestedLoop(
        test: { self.truth(self.emit(parts.condition), "loopcond") }, nests: enclosesLoop(loop),
        iteration: { _ = self.emit(parts.body) })
    }
  }

  /// `while test() { iteration }`, the builder left in the block after the loop; `nests`:
  /// whether an iteration runs another loop (`IRGenerator+LoopHints.swift`).
  private func emitPreTestedLoop(test: () -> LLVMValueRef, nests: Bool, iteration: () -> Void) {
    let b = builder.reference
    let top = block("loopcond")
    let body = block("loop")
    let after = block("afterloop")
    LLVMBuildBr(b, top)
    LLVMPositionBuilderAtEnd(b, top)
    LLVMBuildCondBr(b, test(), body, after)
    LLVMPositionBuilderAtEnd(b, body)
    iteration()
    let backEdge = LLVMBuildBr(b, top)!
    if nests { forbidRuntimeUnrolling(of: backEdge) }
    LLVMPositionBuilderAtEnd(b, after)
  }
}
