import Synchronization

/// A call to the snippet store that gives up in time. A PostgreSQL pool whose database is
/// down keeps trying to connect, and a request must not wait for it: the call is retried
/// while it fails (a restarted database closes the pool's connections, and the first query
/// after may meet one) and abandoned at its deadline. The caller then answers without the
/// store: a share gets 503 with `Retry-After` (SPEC §9), a cache lookup is a miss.
///
/// The caller is answered at the deadline even when the work does not stop: PostgresNIO
/// cancels the wait for a connection but not a query already sent, and a query sent while
/// the database shuts down may wait as long as the connection lives. The abandoned work is
/// cancelled and ends on its own.
enum StoreCall {
  /// The store did not answer before the deadline.
  struct Unavailable: Error {
    let lastError: (any Error)?
  }

  /// How long to wait before trying a failed call again.
  static let retryPause = Duration.milliseconds(100)

  static func withDeadline<T: Sendable>(
    _ deadline: Duration, _ work: @Sendable @escaping () async throws -> T
  ) async throws -> T {
    let outcome = FirstOutcome<T>()
    let attempts = Task {
      while !Task.isCancelled {
        do {
          outcome.settle(.success(try await work()))
          return
        } catch {
          outcome.record(error)
          try? await Task.sleep(for: retryPause)
        }
      }
      outcome.giveUp()
    }
    let timer = Task {
      try? await Task.sleep(for: deadline)
      outcome.giveUp()
    }
    defer {
      attempts.cancel()
      timer.cancel()
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { outcome.await($0) }
    } onCancel: {
      outcome.giveUp()
    }
  }
}

/// The first of a call's result, its deadline and its caller's cancellation, handed to the
/// one caller waiting for it. Any may come before the caller starts to wait; what comes
/// after the first is dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
  /// What has come so far, and the caller waiting, if it waits yet.
  private struct State {
    var result: Result<T, any Error>?
    var waiting: CheckedContinuation<T, any Error>?
    var lastError: (any Error)?
  }

  private let state = Mutex(State())

  /// Resumes `continuation` now if the outcome is known, or when it is.
  func await(_ continuation: CheckedContinuation<T, any Error>) {
    let known = state.withLock { state in
      if state.result == nil { state.waiting = continuation }
      return state.result
    }
    if let known { continuation.resume(with: known) }
  }

  func record(_ error: any Error) {
    state.withLock { $0.lastError = error }
  }

  /// The store did not answer in time, or the caller stopped waiting.
  func giveUp() {
    let error = state.withLock { StoreCall.Unavailable(lastError: $0.lastError) }
    settle(.failure(error))
  }

  func settle(_ result: Result<T, any Error>) {
    let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
      guard state.result == nil else { return nil }
      state.result = result
      defer { state.waiting = nil }
      return state.waiting
    }
    waiting?.resume(with: result)
  }
}
