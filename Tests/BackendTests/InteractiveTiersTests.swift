import Glibc
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime
import Testing

@testable import KaleidoscopeBackend

/// The REPL's tiers: which inputs the interpreter runs, and how it is stopped.
@Suite("REPL tiers")
struct InteractiveTiersTests {
  private func evaluate(_ text: String, in session: InteractiveSession) throws {
    let outcome = try LargeStack.run { try session.evaluate(SourceFile(name: "<test>", text: text)) }
    guard case .evaluated(faulted: false) = outcome else {
      Issue.record("'\(text)' did not run: \(outcome)")
      return
    }
  }

  /// Inputs and how many of the session's expressions have run in the interpreter after each.
  @Test(arguments: [
    (true, [("def twice(x) x * 2", 0), ("twice(0.5)", 1), ("twice(1) + 1", 2), ("for i = 0, i < 2 in twice(i)", 2)]),
    (true, [("var g = 1", 0), ("def add(x) x + g", 0), ("g = add(1)", 1), ("var g = 5", 1)]),
    (false, [("def twice(x) x * 2", 0), ("twice(0.5)", 0)]),
  ])
  func expressionsWithoutLoopsAreInterpreted(tiered: Bool, inputs: [(String, Int)]) throws {
    let session = try LargeStack.run { try InteractiveSession(tiered: tiered) }
    #expect(session.isTiered == tiered)
    for (text, interpreted) in inputs {
      try evaluate(text, in: session)
      #expect(session.interpretedExpressions == interpreted, "after '\(text)'")
    }
  }

  /// Debug info pins machine code, for the debugger.
  @Test func debugInfoTurnsTheTiersOff() throws {
    let session = try LargeStack.run { try InteractiveSession(options: CompileOptions(debugInfo: true)) }
    #expect(!session.isTiered)
  }

  /// The interpreter learns of Ctrl-C when it reports calls (an interpreted input repeats
  /// nothing but calls).
  @Test func anInterruptStopsTheInterpreterAtItsNextReport() throws {
    let tiers = InteractiveTiers()
    let function = FunctionID(index: 0)
    #expect(throws: Never.self) { try tiers.called(function, times: 1) }
    ks_catch_interrupts()
    defer { signal(SIGINT, SIG_DFL) }
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &interrupt, &previous)
    raise(SIGINT)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    #expect(throws: InterpreterError.interrupted) { try tiers.called(function, times: 16) }
    #expect(throws: Never.self) { try tiers.called(function, times: 32) }
  }
}
