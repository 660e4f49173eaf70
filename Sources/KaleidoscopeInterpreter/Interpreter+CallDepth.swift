import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// The call depth limit of SPEC §3 (`KS_CALL_DEPTH_LIMIT`), counted exactly as compiled code
/// counts it (`IRGenerator+CallDepth.swift`): a call of one of the program's functions is
/// one level, whether it is interpreted or runs as machine code, and the call that would go
/// one deeper fails at its site.
extension Interpreter {
  /// Counts a call of one of the program's functions, unless it would go deeper than the
  /// limit; the caller counts it back when the call returns.
  @inline(__always)
  func enterCall(at site: ExprID) throws(InterpreterError) {
    guard callDepth < KS_CALL_DEPTH_LIMIT else { throw callDepthError(at: site) }
    callDepth += 1
  }

  /// The error of a call at `site` that would go deeper than the limit, worded by the
  /// runtime as compiled code words it.
  @inline(never)
  func callDepthError(at site: ExprID) -> InterpreterError {
    located(at: site, capacity: 100) { ks_describe_call_depth_error($0, $1, $2) }
  }
}
