import Synchronization
import Testing

@testable import KaleidoscopePlayground

/// A call to the snippet store answers its caller by the deadline, whatever the store does:
/// a request never waits on a database that is down or shutting down (SPEC §9).
@Suite("Store calls")
struct StoreCallTests {
  /// A failure the store might report.
  struct Refused: Error {}

  /// Work that neither ends nor heeds cancellation, like a PostgresNIO query sent on a
  /// connection the server stopped answering, until the test lets it go.
  final class Stuck: Sendable {
    private let held = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let released = Mutex(false)
    private let entered = Mutex(false)

    var hasStarted: Bool { entered.withLock { $0 } }

    func wait() async {
      entered.withLock { $0 = true }
      await withCheckedContinuation { continuation in
        let now = released.withLock { $0 }
        if now { continuation.resume() } else { held.withLock { $0 = continuation } }
      }
    }

    func release() {
      released.withLock { $0 = true }
      held.withLock { $0.take() }?.resume()
    }
  }

  /// How the call ended while its work was stuck, or nil if it did not end within `patience`
  /// (the work is then let go, so that a regression fails rather than hangs).
  static func outcomeWhileStuck(
    deadline: Duration, cancelled: Bool = false, patience: Duration = .seconds(20)
  ) async -> Result<Int, any Error>? {
    let stuck = Stuck()
    let outcome = Mutex<Result<Int, any Error>?>(nil)
    let caller = Task {
      let result: Result<Int, any Error>
      do {
        result = .success(
          try await StoreCall.withDeadline(deadline) {
            await stuck.wait()
            return 1
          })
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
    }
    let clock = ContinuousClock()
    let giveUp = clock.now + patience
    if cancelled {
      while !stuck.hasStarted && clock.now < giveUp { try? await Task.sleep(for: .milliseconds(10)) }
      caller.cancel()
    }
    while outcome.withLock({ $0.map { _ in false } ?? true }) && clock.now < giveUp {
      try? await Task.sleep(for: .milliseconds(10))
    }
    let answered = outcome.withLock { $0 }
    stuck.release()
    await caller.value
    return answered
  }

  @Test func workThatIgnoresCancellationIsAbandonedAtTheDeadline() async throws {
    let outcome = try #require(await Self.outcomeWhileStuck(deadline: .milliseconds(50)))
    #expect(throws: StoreCall.Unavailable.self) { try outcome.get() }
  }

  @Test func aCallerThatStopsWaitingIsAnsweredAtOnce() async throws {
    let outcome = try #require(await Self.outcomeWhileStuck(deadline: .seconds(3600), cancelled: true))
    #expect(throws: StoreCall.Unavailable.self) { try outcome.get() }
  }

  @Test func aFailedCallIsTriedAgainUntilItAnswers() async throws {
    let calls = Mutex(0)
    let answer = try await StoreCall.withDeadline(.seconds(30)) {
      let call = calls.withLock { count in
        count += 1
        return count
      }
      if call < 3 { throw Refused() }
      return call
    }
    #expect(answer == 3)
  }

  @Test func aStoreThatKeepsFailingIsUnavailableWithItsLastError() async {
    do {
      _ = try await StoreCall.withDeadline(.milliseconds(300)) { () async throws -> Int in throw Refused() }
      Issue.record("the call answered")
    } catch let error as StoreCall.Unavailable {
      #expect(error.lastError is Refused)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
