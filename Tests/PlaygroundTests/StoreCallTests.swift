import Dispatch
import Synchronization
import Testing

@testable import KaleidoscopePlayground

/// A call to the snippet store answers its caller by the deadline, whatever the store does:
/// a request never waits on a database that is down or shutting down (SPEC §9).
@Suite("Store calls")
struct StoreCallTests {
  /// A failure the store might report.
  struct Refused: Error {}

  /// A flag that, once open, stays open; tasks can wait for it.
  final class Gate: Sendable {
    /// Whether the gate is open, and who waits for it.
    private struct State {
      var open = false
      var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
      let waiting = state.withLock { state in
        state.open = true
        defer { state.waiting = [] }
        return state.waiting
      }
      for continuation in waiting { continuation.resume() }
    }

    func wait() async {
      await withCheckedContinuation { continuation in
        let open = state.withLock { state in
          if !state.open { state.waiting.append(continuation) }
          return state.open
        }
        if open { continuation.resume() }
      }
    }
  }

  /// Work that neither ends nor heeds cancellation, like a PostgresNIO query sent on a
  /// connection the server stopped answering, until the test lets it go.
  final class Stuck: Sendable {
    let started = Gate()
    let released = Gate()

    func wait() async {
      started.open()
      await released.wait()
    }
  }

  /// How the call ended while its work was stuck, or nil if the work had to be let go first.
  /// With `firstAttemptFails`, the first attempt throws `Refused` and the second is stuck
  /// (`stuck.started` then says the first one's error was recorded). The work is let go
  /// after `patience`, on a thread outside Swift's cooperative pool, so that a regression
  /// fails rather than hangs; the other tests may hold the pool's threads for minutes, so
  /// nothing here measures time on it.
  static func outcomeWhileStuck(
    deadline: Duration, cancelled: Bool = false, firstAttemptFails: Bool = false, patience: Double = 600
  ) async -> Result<Int, any Error>? {
    let stuck = Stuck()
    let attempts = Mutex(0)
    let caller = Task {
      try await StoreCall.withDeadline(deadline) { () async throws -> Int in
        let attempt = attempts.withLock { count in
          count += 1
          return count
        }
        if firstAttemptFails, attempt == 1 { throw Refused() }
        await stuck.wait()
        return attempt
      }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + patience) { stuck.released.open() }
    if cancelled {
      await stuck.started.wait()
      caller.cancel()
    }
    let outcome = await caller.result
    let answeredFirst = !stuck.released.isOpen
    stuck.released.open()
    return answeredFirst ? outcome : nil
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
    let answer = try await StoreCall.withDeadline(.seconds(600)) {
      let call = calls.withLock { count in
        count += 1
        return count
      }
      if call < 3 { throw Refused() }
      return call
    }
    #expect(answer == 3)
  }

  /// The first attempt fails and the second hangs: once the second has started, the first
  /// one's error is recorded, and the caller who gives up is told it.
  @Test func aCallerWhoGivesUpIsToldTheStoresLastError() async throws {
    let outcome = try #require(
      await Self.outcomeWhileStuck(deadline: .seconds(3600), cancelled: true, firstAttemptFails: true))
    do {
      _ = try outcome.get()
      Issue.record("the call answered")
    } catch let error as StoreCall.Unavailable {
      #expect(error.lastError is Refused)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
