/// A call to the snippet store that gives up in time. A PostgreSQL pool whose database is
/// down keeps trying to connect, and a request must not wait for it: the call is retried
/// while it fails (a restarted database closes the pool's connections, and the first query
/// after may meet one) and cancelled at its deadline. The caller then answers without the
/// store: a share gets 503 with `Retry-After` (SPEC §9), a cache lookup is a miss.
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
    let attempts = Task { () -> Result<T, any Error> in
      var lastError: (any Error)?
      while !Task.isCancelled {
        do {
          return .success(try await work())
        } catch {
          lastError = error
          try? await Task.sleep(for: retryPause)
        }
      }
      return .failure(Unavailable(lastError: lastError))
    }
    let timer = Task {
      try await Task.sleep(for: deadline)
      attempts.cancel()
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
      try await attempts.value.get()
    } onCancel: {
      attempts.cancel()
    }
  }
}
