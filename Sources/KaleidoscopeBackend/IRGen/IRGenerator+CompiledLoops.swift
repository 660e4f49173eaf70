import CLLVM
import KaleidoscopeFrontend

/// A loop whose code an earlier tiered module holds (`emitLoopContinuation`): a module that
/// contains the loop calls that code rather than compile the loop again. Tiered execution
/// compiles a nest from the inside out (an inner loop gets hot first, then the loop around
/// it), and a Gaussian elimination compiled its row update alone, then again inside the
/// loop over rows, then again inside the loop over columns.
struct CompiledLoop {
  /// The continuation's symbol in the JIT.
  let symbol: String
  /// The body the loop is in, by its index in `CheckedProgram.bodies`.
  let body: Int
  /// Whether the code may decline a frame (it was made for usual frames): the caller then
  /// runs the loop in a fallback of its own.
  let mayDecline: Bool
}

extension IRGenerator {
  /// The code compiled for the loop at `node` by an earlier module, if any and if the frame
  /// is a loop continuation's. A continuation's frame comes from cells, as the inner loop's
  /// does, so compiling the inner loop again in it would gain little; a function's module
  /// compiles its loops again, since its calls may pass constants that make them cheaper
  /// (Josephus's `last(n, 7)` ran 4% slower calling its loops' code).
  func compiledLoop(at node: ExprID) -> CompiledLoop? {
    guard case .tiered(_, _, let loops) = linking, frameIsLoopContinuation, case .loop(let index) = tree[node] else {
      return nil
    }
    return loops[index]
  }

  /// Runs the loop at `node` (its counter set to its start) in `compiled`: the frame's
  /// locals go into cells as the interpreter would pass them, and the numbers the loop
  /// assigns come back from them, with their integer copies. A frame the code declines is
  /// run by a fallback emitted in this module, unoptimised: it is for the rare frame, and
  /// compiling it well would cost the time the call saves.
  func callCompiledLoop(_ compiled: CompiledLoop, at node: ExprID) {
    let b = builder.reference
    let body = program.bodies[compiled.body]
    let cells = entryBlockAlloca(LLVMArrayType2(double, UInt64(2 * max(1, body.locals.count))), "cells")
    func cell(_ index: Int) -> LLVMValueRef { self.cell(index, of: cells) }
    for (offset, local) in body.locals.enumerated() {
      if local.valueKind == .number {
        LLVMBuildStore(b, loadNumber(from: locals[offset]), cell(2 * offset))
      } else {
        LLVMBuildStore(
          b, LLVMBuildLoad2(b, pointer, LLVMBuildStructGEP2(b, arrayType, locals[offset], 0, ""), "")!, cell(2 * offset))
        LLVMBuildStore(
          b, LLVMBuildLoad2(b, int64, LLVMBuildStructGEP2(b, arrayType, locals[offset], 1, ""), "")!, cell(2 * offset + 1))
      }
    }
    let entryType = loopEntryType()
    let depth = callDepth ?? LLVMConstInt(int32, 0, 0)!
    let code =
      LLVMGetNamedFunction(module.reference, compiled.symbol) ?? LLVMAddFunction(module.reference, compiled.symbol, entryType)!
    let ran = callLoopEntry(code, cells: cells, depth: depth)
    if compiled.mayDecline && !frameIsUsual(for: node, of: body) {
      let declined = block("loop.declined")
      let after = block("loop.ran")
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, ran, LLVMConstInt(int32, 0, 0), "")!, declined, after)
      LLVMPositionBuilderAtEnd(b, declined)
      _ = callLoopEntry(loopFallback(compiled, at: node), cells: cells, depth: depth)
      LLVMBuildBr(b, after)
      LLVMPositionBuilderAtEnd(b, after)
    }
    for index in localsAssigned(inside: node).sorted() where body.locals[Int(index)].valueKind == .number {
      let value = LLVMBuildLoad2(b, double, cell(2 * Int(index)), "")!
      storeNumber(value, into: locals[Int(index)])
      if activeCounters[index] != nil, let copy = integerLocals[Int(index)] {
        LLVMBuildStore(b, LLVMBuildFreeze(b, LLVMBuildFPToSI(b, value, int64, "")!, "")!, copy)
      }
    }
  }

  /// Whether code made for usual frames (`emitLoopContinuation`) takes this frame at
  /// `node` as one: this frame's code assumed its call depth far from the limit, and the
  /// numbers that code assumes whole have integer copies here.
  private func frameIsUsual(for node: ExprID, of body: CheckedBody) -> Bool {
    frameAssumedShallow && fixedNumberLocals(around: node, of: body).allSatisfy { activeCounters[$0.index] != nil }
  }

  private func callLoopEntry(_ code: LLVMValueRef, cells: LLVMValueRef, depth: LLVMValueRef) -> LLVMValueRef {
    var arguments: [LLVMValueRef?] = [cells, depth]
    return LLVMBuildCall2(builder.reference, loopEntryType(), code, &arguments, 2, "ran")!
  }

  /// The module's fallback for frames `compiled` declines: the loop's general continuation,
  /// declared now and emitted once the module's own code is (`emitLoopFallbacks`).
  private func loopFallback(_ compiled: CompiledLoop, at node: ExprID) -> LLVMValueRef {
    let name = compiled.symbol + ".fallback"
    if let existing = LLVMGetNamedFunction(module.reference, name) { return existing }
    let fallback = LLVMAddFunction(module.reference, name, loopEntryType())!
    LLVMSetLinkage(fallback, LLVMInternalLinkage)
    pendingLoopFallbacks.append((name, node, compiled.body))
    return fallback
  }

  /// Emits the fallbacks that calls to compiled loops declared (each may declare more),
  /// unoptimised and never inlined.
  func emitLoopFallbacks() {
    while !pendingLoopFallbacks.isEmpty {
      let (name, node, body) = pendingLoopFallbacks.removeFirst()
      emitLoopContinuation(named: name, loop: node, of: program.bodies[body])
      let fallback = LLVMGetNamedFunction(module.reference, name)!
      addAttribute("noinline", to: fallback)
      addAttribute("optnone", to: fallback)
    }
  }

  /// The locals that an assignment under `node` may change.
  private func localsAssigned(inside node: ExprID) -> Set<Int32> {
    var assigned = Set<Int32>()
    _ = tree.contains(SyntaxNode(.expr(node))) { candidate in
      guard case .expr(let id) = candidate.reference else { return false }
      if case .assign(let target, _) = tree[id], case .local(let local) = program.variable(of: target) {
        assigned.insert(local.index)
      }
      return false
    }
    return assigned
  }

  /// An alloca in the function's entry block, so that a call in a loop reuses one.
  private func entryBlockAlloca(_ type: LLVMTypeRef, _ name: String) -> LLVMValueRef {
    let b = builder.reference
    let current = LLVMGetInsertBlock(b)!
    let entry = LLVMGetEntryBasicBlock(function)!
    if let first = LLVMGetFirstInstruction(entry) {
      LLVMPositionBuilderBefore(b, first)
    } else {
      LLVMPositionBuilderAtEnd(b, entry)
    }
    let value = LLVMBuildAlloca(b, type, name)!
    LLVMPositionBuilderAtEnd(b, current)
    return value
  }
}
