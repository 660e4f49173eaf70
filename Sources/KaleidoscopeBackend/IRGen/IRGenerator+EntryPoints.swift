import CLLVM
import KaleidoscopeFrontend
import KaleidoscopeInterpreter

/// The functions around a program's own: the entry function that runs the top-level
/// expressions, C's `main` for executables, and the stubs that stand for unresolved externs.
extension IRGenerator {
  /// Emits the entry function: runs each top-level function in order, printing the value of
  /// each that `printed` says, when the options ask for it.
  func emitEntry(calling topLevels: [(function: LLVMValueRef, printed: Bool)], name: String = Symbols.entry) {
    let void = LLVMVoidTypeInContext(context)!
    let entryType = LLVMFunctionType(void, nil, 0, 0)!
    let entry = LLVMAddFunction(module.reference, name, entryType)!
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, entry, "entry"))
    let print = runtimeFunction(Symbols.printValue, returning: void, parameters: [double])
    for topLevel in topLevels {
      let value = LLVMBuildCall2(builder.reference, functionType([]), topLevel.function, nil, 0, "value")
      if options.printValues && topLevel.printed {
        var arguments: [LLVMValueRef?] = [value]
        _ = arguments.withUnsafeMutableBufferPointer {
          LLVMBuildCall2(builder.reference, print.type, print.value, $0.baseAddress, 1, "")
        }
      }
    }
    LLVMBuildRetVoid(builder.reference)
  }

  /// Emits C's `main` for executables: the runtime runs the entry function on the stack
  /// every engine runs programs on (`ks_run_main`).
  func emitMain() {
    let void = LLVMVoidTypeInContext(context)!
    let mainType = LLVMFunctionType(int32, nil, 0, 0)!
    let main = LLVMAddFunction(module.reference, "main", mainType)!
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, main, "entry"))
    let run = runtimeFunction("ks_run_main", returning: void, parameters: [pointer])
    callRuntime(run, [LLVMGetNamedFunction(module.reference, Symbols.entry)!])
    LLVMBuildRet(builder.reference, LLVMConstInt(int32, 0, 0))
  }

  /// Emits `double name(ptr cells, i32 depth)`, the interpreter's way into compiled code
  /// (`NativeEntry`): it loads each argument from the cells (a number; an array's element
  /// address and count, two cells) and calls `target`, which takes `parameters`, at the
  /// call depth the interpreter has checked.
  func emitTierEntry(named name: String, calling target: LLVMValueRef, parameters: [NameKind]) {
    var entryParameters: [LLVMTypeRef?] = [pointer, int32]
    let type = LLVMFunctionType(double, &entryParameters, 2, 0)!
    let entry = LLVMAddFunction(module.reference, name, type)!
    let b = builder.reference
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(context, entry, "entry"))
    let cells = LLVMGetParam(entry, 0)!
    func cell(_ index: Int) -> LLVMValueRef { self.cell(index, of: cells) }
    var arguments: [LLVMValueRef] = []
    var next = 0
    for kind in parameters {
      if kind == .number {
        arguments.append(LLVMBuildLoad2(b, double, cell(next), "")!)
        next += 1
      } else {
        arguments.append(LLVMBuildLoad2(b, pointer, cell(next), "")!)
        arguments.append(LLVMBuildLoad2(b, int64, cell(next + 1), "")!)
        next += 2
      }
    }
    var values = arguments.map { Optional($0) }
    if countsCallDepth { values.append(namedParameter(of: entry, at: 1, "depth")) }
    let value = values.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(b, functionType(parameters, takesDepth: countsCallDepth), target, $0.baseAddress, UInt32($0.count), "")!
    }
    LLVMBuildRet(b, value)
  }

  /// Emits `i32 name(ptr cells, i32 depth)`, the rest of a running loop (`LoopEntry`), for
  /// tiered execution's on-stack replacement: the cells hold the body's locals, two each (a
  /// number; an array's element address and count), as the interpreter left them at the top
  /// of an iteration of the loop at `node`, in a frame at call depth `depth`. It runs the
  /// remaining iterations, stores back the numbers the frame reads again and returns 1.
  ///
  /// When `forUsualFrames`, the code holds for any frame whose numbers fixed
  /// throughout the loop (unassigned parameters and `var`s around it) are whole numbers
  /// below 2^52 (`assumeWhole`: a bound `i < n` then counts in integers, which LLVM needs
  /// to count the loop) and whose call depth is far from the limit (`assumeShallow`), and
  /// returns 0 at once for another.
  func emitLoopContinuation(
    named name: String, loop node: ExprID, of body: CheckedBody, forUsualFrames: Bool = false
  ) {
    guard case .loop(let index) = tree[node] else { preconditionFailure("tiers enter only loops") }
    // A call may have declared it already (`callCompiledLoop`'s fallback).
    let value = LLVMGetNamedFunction(module.reference, name) ?? LLVMAddFunction(module.reference, name, loopEntryType())!
    let b = builder.reference
    function = value
    callDepth = namedParameter(of: value, at: 1, "depth")
    frameIsLoopContinuation = true
    indices.current = indexFacts(of: body)
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(context, value, "entry"))
    allocateLocals(of: body)
    let cells = LLVMGetParam(value, 0)!
    func cell(_ index: Int) -> LLVMValueRef { self.cell(index, of: cells) }
    for (offset, local) in body.locals.enumerated() {
      if local.valueKind == .number {
        storeNumber(LLVMBuildLoad2(b, double, cell(2 * offset), "")!, into: locals[offset])
      } else {
        let elements = LLVMBuildLoad2(b, pointer, cell(2 * offset), "")!
        storeArray(elements: elements, count: LLVMBuildLoad2(b, int64, cell(2 * offset + 1), "")!, into: locals[offset])
      }
    }
    // The integral and stepped locals' integer copies, from the doubles the interpreter
    // holds (whole, at most 2^53 in magnitude, where in scope; a local out of scope here is
    // bound again before any use), in order: the same program must make the same module
    // (`MachineCodeCache`).
    for index in indices.current.integralLocals.union(indices.current.steppedLocals).sorted() {
      let converted = LLVMBuildFPToSI(b, loadNumber(from: locals[Int(index)]), int64, "")!
      LLVMBuildStore(b, LLVMBuildFreeze(b, converted, "")!, integerLocals[Int(index)]!)
    }
    if forUsualFrames {
      assumeWhole(fixedNumberLocals(around: node, of: body), of: body, in: value)
      if let callDepth {
        assumeShallow(callDepth, in: value)
        frameAssumedShallow = true
      }
    }
    startEnclosingCounters(of: node, in: body)
    let loop = tree.loop(index)
    emitIterations(of: loop, at: node)
    // What the loop binds is out of scope once it ends, and not stored: its own counter,
    // which, left unused, LLVM can count the loop with as an integer (it turns a counter
    // into one only when nothing else reads it), and its inner loops' counters and `var`s,
    // whose doubles would otherwise be computed at every iteration only to be stored here;
    // nor what the frame never reads again, for the same reason (`localsReadAfter`).
    let bound = localsBound(inside: node)
    let readAfter = localsReadAfter(loop: node, of: body)
    for (offset, local) in body.locals.enumerated()
    where local.valueKind == .number && !bound.contains(Int32(offset)) && readAfter?.contains(Int32(offset)) != false {
      LLVMBuildStore(b, loadNumber(from: locals[offset]), cell(2 * offset))
    }
    LLVMBuildRet(b, LLVMConstInt(int32, 1, 0))
    function = nil
    callDepth = nil
    frameAssumedShallow = false
    frameIsLoopContinuation = false
    emitPendingCopies()
  }

  /// `i32 (ptr cells, i32 depth)`, a loop continuation's type.
  func loopEntryType() -> LLVMTypeRef {
    var parameters: [LLVMTypeRef?] = [pointer, int32]
    return LLVMFunctionType(int32, &parameters, 2, 0)!
  }

  /// The address of cell `index` of a frame passed in cells (two per local).
  func cell(_ index: Int, of cells: LLVMValueRef) -> LLVMValueRef {
    var offset: [LLVMValueRef?] = [LLVMConstInt(int64, UInt64(index), 0)]
    return LLVMBuildGEP2(builder.reference, double, cells, &offset, 1, "")!
  }

  /// The locals that the loop at `node` binds: its counter, and its inner loops' counters
  /// and the `var`s within it.
  private func localsBound(inside node: ExprID) -> Set<Int32> {
    var bound = Set<Int32>()
    _ = tree.contains(SyntaxNode(.expr(node))) { candidate in
      guard case .expr(let id) = candidate.reference else { return false }
      if case .varIn(let index) = tree[id] { bound.formUnion(program.bindingLocals(of: tree.varIn(index)).map(\.index)) }
      if case .loop(let index) = tree[id], case .forLoop = tree.loop(index) { bound.insert(program.loopVariable(of: id).index) }
      return false
    }
    return bound
  }

  /// In the entry block of the rest of a running loop made for usual frames: goes on in a
  /// block named `assumed` when `holds`, and returns 0 from one named `otherwise` when it
  /// does not (the frame is not one the code was made for; tiers then compile the loop's
  /// general code).
  func declineFrame(unless holds: LLVMValueRef, assumed: String, otherwise: String, in function: LLVMValueRef) {
    let b = builder.reference
    let goesOn = LLVMAppendBasicBlockInContext(context, function, assumed)!
    let declines = LLVMAppendBasicBlockInContext(context, function, otherwise)!
    LLVMBuildCondBr(b, holds, goesOn, declines)
    LLVMPositionBuilderAtEnd(b, declines)
    LLVMBuildRet(b, LLVMConstInt(int32, 0, 0))
    LLVMPositionBuilderAtEnd(b, goesOn)
  }

  /// The locals that the frame may read once the loop at `node` has ended: those read
  /// outside it. Nil when the loop can run again in the same frame (it lies in another loop
  /// of the body), since its next run reads what this one left. A local the frame never
  /// reads again is not stored, so LLVM need not keep its double beside its integer copy.
  private func localsReadAfter(loop node: ExprID, of body: CheckedBody) -> Set<Int32>? {
    if program.loop(around: node, in: body) != nil { return nil }
    var read = Set<Int32>()
    var work = [SyntaxNode(.expr(body.body))]
    while let next = work.popLast() {
      if case .expr(let id) = next.reference {
        if id == node { continue }
        if case .variable = tree[id], case .local(let local) = program.variable(of: id) { read.insert(local.index) }
      }
      work += tree.children(of: next)
    }
    return read
  }

  func emitUnresolvedStub(_ stub: LLVMValueRef, name: String) {
    let saved = LLVMGetInsertBlock(builder.reference)
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, stub, "entry"))
    let report = runtimeFunction(
      Symbols.unresolvedExtern, returning: LLVMVoidTypeInContext(context), parameters: [LLVMPointerTypeInContext(context, 0)])
    var arguments: [LLVMValueRef?] = [LLVMBuildGlobalStringPtr(builder.reference, name, "extern.name")]
    _ = arguments.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, report.type, report.value, $0.baseAddress, 1, "")
    }
    LLVMBuildUnreachable(builder.reference)
    if let saved { LLVMPositionBuilderAtEnd(builder.reference, saved) }
  }

  /// A runtime function, declared on first use; `attributes` (such as `noreturn`) are given
  /// when it is declared.
  func runtimeFunction(
    _ name: String, returning result: LLVMTypeRef, parameters: [LLVMTypeRef], attributes: [String] = []
  ) -> (value: LLVMValueRef, type: LLVMTypeRef) {
    var parameterTypes = parameters.map { Optional($0) }
    let type = parameterTypes.withUnsafeMutableBufferPointer {
      LLVMFunctionType(result, $0.baseAddress, UInt32(parameters.count), 0)!
    }
    if let existing = LLVMGetNamedFunction(module.reference, name) { return (existing, type) }
    let value = LLVMAddFunction(module.reference, name, type)!
    for attribute in attributes { addAttribute(attribute, to: value) }
    return (value, type)
  }

  /// Calls a runtime function.
  @discardableResult
  func callRuntime(_ function: (value: LLVMValueRef, type: LLVMTypeRef), _ arguments: [LLVMValueRef], _ name: String = "")
    -> LLVMValueRef
  {
    var values = arguments.map { Optional($0) }
    return values.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, function.type, function.value, $0.baseAddress, UInt32($0.count), name)!
    }
  }
}
