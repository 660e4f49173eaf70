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

  /// Work that neither ends nor heeds cancellation, like a PostgresNIO query sent on a
  /// connection the server stopped answering, until the test lets it go.
  final class Stuck: Sendable {
    private struct State {
      var started = false
      var released = false
      var work: CheckedContinuation<Void, Never>?
      var watcher: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    var isReleased: Bool { state.withLock { $0.released } }

    /// The work: waits until released.
    func wait() async {
      let watcher = state.withLock { state in
        state.started = true
        return state.watcher.take()
      }
      watcher?.resume()
      await withCheckedContinuation { continuation in
        let released = state.withLock { state in
          if !state.released { state.work = continuation }
          return state.released
        }
        if released { continuation.resume() }
      }
    }

    /// Returns once the work has started.
    func started() async {
      await withCheckedContinuation { continuation in
        let started = state.withLock { state in
          if !state.started { state.watcher = continuation }
          return state.started
        }
        if started { continuation.resume() }
      }
    }

    func release() {
      state.withLock { state in
        state.released = true
        return state.work.take()
      }?.resume()
    }
  }

  /// How the call ended while its work was stuck, or nil if the work had to be let go first.
  /// The work is let go after `patience`, on a thread outside Swift's cooperative pool, so
  /// that a regression fails rather than hangs; the other tests may hold the pool's threads
  /// for minutes, so nothing here measures time on it.
  static func outcomeWhileStuck(
    deadline: Duration, cancelled: Bool = false, patience: Double = 600
  ) async -> Result<Int, any Error>? {
    let stuck = Stuck()
    let caller = Task {
      try await StoreCall.withDeadline(deadline) {
        await stuck.wait()
        return 1
      }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + patience) { stuck.release() }
    if cancelled {
      await stuck.started()
      caller.cancel()
    }
    let outcome = await caller.result
    let answeredFirst = !stuck.isReleased
    stuck.release()
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
  @Test func aCallerWhoGivesUpIsToldTheStoresLastError() async {
    let stuck = Stuck()
    let calls = Mutex(0)
    let caller = Task {
      try await StoreCall.withDeadline(.seconds(3600)) { () async throws -> Int in
        let call = calls.withLock { count in
          count += 1
          return count
        }
        if call == 1 { throw Refused() }
        await stuck.wait()
        return call
      }
    }
    await stuck.started()
    caller.cancel()
    let outcome = await caller.result
    stuck.release()
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
