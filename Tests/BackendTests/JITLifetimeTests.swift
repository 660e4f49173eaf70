import KaleidoscopeBackend
import Testing

/// `JIT.keepUntilExit()`: `run` leaves its JIT standing instead of tearing it down.
@Suite struct JITLifetimeTests {
  @Test func aKeptJITOutlivesItsLastReference() throws {
    weak var kept: JIT?
    weak var released: JIT?
    do {
      let jit = try JIT(optimization: .standard)
      jit.keepUntilExit()
      kept = jit
      released = try JIT(optimization: .standard)
    }
    #expect(kept != nil)
    #expect(released == nil)
  }
}
