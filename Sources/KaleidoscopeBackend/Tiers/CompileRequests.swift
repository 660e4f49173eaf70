import KaleidoscopeFrontend

/// The globals' cells as the interpreter's thread read them, handed to the compiler thread.
struct GlobalSnapshot: @unchecked Sendable {
  let cells: [(UInt64, UInt64)]
}

/// What was handed to the compiler: functions (by `FunctionID.index`), functions whose own
/// entry was, and loops (by loop index); the loops that have started; the globals' cells at
/// the last request; the loops to compile ahead and how far the compiler thread has gone
/// through them.
struct CompileRequests {
  var functions: [Bool]
  var entries: [Bool]
  var loops: [Bool]
  /// Loops that have started in the interpreter.
  var started: [Bool]
  var cells: GlobalSnapshot?
  /// The loops to compile ahead, in order (`CallGraph.loopsToCompileAhead`), found once on
  /// the compiler thread (`TieredExecution.aheadCandidates`).
  var aheadOfTime: [CallGraph.AheadCandidate]?
  var ahead = 0
  /// The top-level body running (`starting(topLevel:)`).
  var topLevel = 0

  init(functions: Int, loops: Int) {
    self.functions = [Bool](repeating: false, count: functions)
    entries = self.functions
    self.loops = [Bool](repeating: false, count: loops)
    started = self.loops
  }
}

/// An entry of a module: what emits it (returning its name), and the slot of an entry
/// table that the compiler thread writes its address in, atomically; for a loop's, the
/// loop's index and its code as later modules call it.
struct ModuleEntry: @unchecked Sendable {
  let slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  var loop: (index: Int32, code: CompiledLoop)? = nil
  let emit: (IRGenerator) -> String
}
