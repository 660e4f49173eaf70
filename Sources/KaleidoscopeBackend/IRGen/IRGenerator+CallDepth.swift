import CLLVM
import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// The call depth limit of SPEC §3 in compiled code.
///
/// At most `KS_CALL_DEPTH_LIMIT` calls of the program's own functions may be in progress at
/// once, in every engine, so that a deep recursion succeeds everywhere or fails everywhere
/// with the same located message. Measuring the machine stack cannot give that: an
/// interpreted call takes a hundred times the stack of a compiled one. So each function
/// takes its call's depth as a last `i32` parameter (1 for a call from the top level), and
/// each call site checks it before passing it on plus one. A register argument and a
/// compare: no memory is written, a function that calls nothing checks nothing, and LLVM
/// folds the identical checks of a function's call sites into one.
///
/// Exported modules (`ir`, `asm`, object files) keep the tutorial's C signature
/// `double f(double...)`, which C programs call (chapter 8): they count nothing.
extension IRGenerator {
  /// Whether calls of `symbol` pass a depth: the program's own functions, when counting.
  func takesDepth(_ symbol: FunctionSymbol) -> Bool {
    countsCallDepth && symbol.origin == .defined
  }

  /// The parameter of `function` at `index`, named `name`.
  func namedParameter(of function: LLVMValueRef, at index: UInt32, _ name: String) -> LLVMValueRef {
    let parameter = LLVMGetParam(function, index)!
    LLVMSetValueName2(parameter, name, name.utf8.count)
    return parameter
  }

  /// The depth of a call made from the current frame at `node`, after checking that it is
  /// within the limit; beyond it, the runtime reports the located error and stops, in a cold
  /// block (`reportCallTooDeep`).
  func checkedCallDepth(at node: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let depth = callDepth ?? LLVMConstInt(int32, 0, 0)
    let limit = LLVMConstInt(int32, UInt64(KS_CALL_DEPTH_LIMIT), 0)
    let tooDeep = LLVMBuildICmp(b, LLVMIntUGE, depth, limit, "toodeep")!
    let ok = block("depth.ok")
    let error = block("depth.error")
    LLVMBuildCondBr(b, tooDeep, error, ok)
    LLVMPositionBuilderAtEnd(b, error)
    reportCallTooDeep(at: node)
    LLVMPositionBuilderAtEnd(b, ok)
    return LLVMBuildNUWAdd(b, depth, LLVMConstInt(int32, 1, 0), "depth.next")
  }

  /// How far below the limit a frame must be for the rest of a running loop to assume its
  /// calls are never too deep (`assumeShallow`): more than the calls LLVM inlines into one
  /// another.
  static let shallowMargin: UInt64 = 1_000

  /// In the entry block of the rest of a running loop: goes on when the frame's depth is
  /// `shallowMargin` or more below the limit, else returns 0 (tiers then compile the loop
  /// without this assumption, as for `assumeWhole`).
  ///
  /// The depth is a parameter, so every check of a call in the loop, and of the calls in
  /// the functions LLVM inlines there, stays in the loop as a branch on it, and a report
  /// made as a result keeps a chain of copies of what follows the call. Past this test LLVM
  /// knows the depth and removes them all, as it does in an executable, whose depth at
  /// `main` is a constant.
  func assumeShallow(_ depth: LLVMValueRef, in function: LLVMValueRef) {
    let b = builder.reference
    let bound = LLVMConstInt(int32, UInt64(KS_CALL_DEPTH_LIMIT) - Self.shallowMargin, 0)
    let shallow = LLVMBuildICmp(b, LLVMIntULT, depth, bound, "shallow")!
    declineFrame(unless: shallow, assumed: "assumedshallow", otherwise: "deep", in: function)
  }

  /// Ends the current block with the runtime's report of a call too deep at `node`.
  ///
  /// In a frame that returns a double (a function of the program), the report is that
  /// frame's result, returned from a tail call: a block ending in `unreachable` would keep
  /// LLVM from shrink-wrapping, so every call of a recursive function, even one that
  /// returns at once, would save registers and make a stack frame. The runtime's function
  /// for this never returns, but it is not declared `noreturn`, which would turn the
  /// `ret` back into `unreachable`.
  private func reportCallTooDeep(at node: ExprID) {
    let b = builder.reference
    let arguments = [site(tree.start(of: node), name: "")]
    let frameResult = function.map { LLVMGetReturnType(LLVMGlobalGetValueType($0)) }
    if frameResult == double {
      let report = runtimeFunction(
        "ks_call_depth_error_as_result", returning: double, parameters: [pointer], attributes: ["cold", "nounwind"])
      let call = callRuntime(report, arguments)
      LLVMSetTailCall(call, 1)
      LLVMBuildRet(b, call)
    } else {
      let report = runtimeFunction(
        "ks_call_depth_error", returning: LLVMVoidTypeInContext(context), parameters: [pointer],
        attributes: ["noreturn", "cold", "nounwind"])
      callRuntime(report, arguments)
      LLVMBuildUnreachable(b)
    }
  }
}
