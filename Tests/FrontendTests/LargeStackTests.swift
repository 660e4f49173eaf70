import Glibc
import KaleidoscopeFrontend
import Synchronization
import Testing

/// `LargeStack.concurrently(_:_:)`: two bodies at once, each result returned.
@Suite struct LargeStackTests {
  @Test func runsTheSecondBodyOnAnotherThreadAtTheSameTime() {
    let caller = pthread_self()
    // The first body waits (boundedly) for the second to start: that happens only if the
    // second runs while the first is still running.
    let started = Flag()
    let (sawSecond, secondThread) = LargeStack.concurrently(
      { () -> Bool in
        for _ in 0..<5_000 {
          if started.value.load(ordering: .acquiring) { return true }
          usleep(1_000)
        }
        return false
      },
      { () -> pthread_t in
        started.value.store(true, ordering: .releasing)
        return pthread_self()
      })
    #expect(sawSecond)
    #expect(pthread_equal(secondThread, caller) == 0)
  }

  @Test func returnsBothResults() {
    let (first, second) = LargeStack.concurrently({ (1...100).reduce(0, +) }, { "second" }, size: 1 << 20)
    #expect(first == 5050)
    #expect(second == "second")
  }
}

/// A flag two threads share.
private final class Flag: Sendable {
  let value = Atomic<Bool>(false)
}
