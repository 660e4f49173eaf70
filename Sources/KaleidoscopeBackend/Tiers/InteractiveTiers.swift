import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's tiers (`InteractiveSession`): an input's top-level expressions run in the
/// interpreter at once, and call the machine code of the functions earlier inputs defined;
/// the input's new definitions compile meanwhile on a compiler thread, and calls switch to
/// their code at function entry once it is ready, as in `TieredExecution`.
///
/// Compiled code still calls only compiled code: a definition is compiled in the background
/// only when nothing compiled can call it yet (a name never declared before), and the next
/// input waits for it. Calls into machine code, and externs, run protected, so a runtime
/// error or a fault there ends the input as it does in compiled code, not the session.
final class InteractiveTiers: CompiledCode, @unchecked Sendable {
  /// One slot per function of the session, by `FunctionID.index`: its tier entry, or nil.
  private(set) var entries: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  private var capacity = 64
  /// Interrupts are polled at calls, which are all an interpreted input can repeat (an input
  /// with a loop is compiled).
  let reportInterval = 16
  let loopReportInterval = 1024
  var callsAreProtected: Bool { true }
  /// No loop is ever handed over: an input with a loop is compiled whole.
  let loopsHandedOver: UnsafeMutablePointer<Int>
  private let compiler = DispatchQueue(label: "kaleidoscope.repl.compiler")
  /// The first error of a background compile, reported by the next input.
  private var failure: (any Error)?

  init() {
    entries = .allocate(capacity: capacity)
    entries.initialize(repeating: nil, count: capacity)
    loopsHandedOver = .allocate(capacity: 1)
    loopsHandedOver.initialize(to: 0)
  }

  deinit {
    compiler.sync {}
    entries.deallocate()
    loopsHandedOver.deallocate()
  }

  /// Makes room for `count` functions' entries. Only between inputs, when nothing compiles.
  func reserve(_ count: Int) {
    guard count > capacity else { return }
    let grown = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 2 * count)
    grown.initialize(repeating: nil, count: 2 * count)
    grown.update(from: entries, count: capacity)
    entries.deallocate()
    entries = grown
    capacity = 2 * count
  }

  /// Points `function`'s calls from the interpreter at `address`.
  func setEntry(_ function: FunctionID, to address: UInt64) {
    ks_tier_store_entry(entries + Int(function.index), UnsafeMutableRawPointer(bitPattern: UInt(address)))
  }

  /// Runs `work` on the compiler thread, on a stack LLVM's recursion fits in. Ctrl-C never
  /// lands there: the runtime's handler jumps back only on the evaluating thread.
  func compileInBackground(_ work: @escaping @Sendable () throws -> Void) {
    compiler.async { [self] in
      var interrupt = sigset_t()
      sigemptyset(&interrupt)
      sigaddset(&interrupt, SIGINT)
      pthread_sigmask(SIG_BLOCK, &interrupt, nil)
      do {
        try LargeStack.run(size: TieredExecution.compilerStack) { try work() }
      } catch {
        if failure == nil { failure = error }
      }
    }
  }

  /// Waits for the background compile, if any; throws its error.
  func waitForCompiles() throws {
    compiler.sync {}
    if let failure {
      self.failure = nil
      throw failure
    }
  }

  // MARK: - CompiledCode

  func called(_ function: FunctionID, times: Int, at site: CallSite?) throws(InterpreterError) {
    if ks_take_interrupt() != 0 { throw InterpreterError.interrupted }
  }

  func loop(_ node: ExprID, of body: Int, iterations: Int) -> LoopEntry? { nil }

  func awaitsCode(forLoop node: ExprID) -> Bool { false }
  func loopMissed(_ node: ExprID, of body: Int) {}
  func loopEnded(_ node: ExprID, iterations: Int) {}
  /// The REPL's arrays hold doubles: a later input may store anything.
  func keepsIntegers(in global: GlobalID) -> Bool { false }
  func starting(topLevel body: Int) {}
}
