import DequeModule

/// Shares the sandboxes fairly among clients and bounds the work in flight.
///
/// At most `workers` sandboxes run at once, and one client may hold at most half of them, so
/// someone flooding the server with hostile programs leaves workers free for everyone else.
/// Requests that must wait are served round-robin by client; a client may have a few
/// waiting, and the server as a whole `queueLimit`. Beyond either, the request is refused
/// (503) rather than queued without end.
actor Admission {
  private let workers: Int
  private let queueLimit: Int
  private let workersPerClient: Int
  private let waitingPerClient = 8
  private var running = 0
  private var runningByClient: [String: Int] = [:]
  private var waitingByClient: [String: Deque<CheckedContinuation<Void, Never>>] = [:]
  /// The clients with requests waiting, in the order they are next served.
  private var turns: Deque<String> = []
  private var waiting = 0

  init(workers: Int, queueLimit: Int) {
    self.workers = max(1, workers)
    self.queueLimit = queueLimit
    workersPerClient = max(1, self.workers / 2)
  }

  /// Waits for a worker for `client`; false when the queue is full.
  func enter(_ client: String) async -> Bool {
    if running < workers && runningByClient[client, default: 0] < workersPerClient {
      start(client)
      return true
    }
    guard waiting < queueLimit, waitingByClient[client, default: []].count < waitingPerClient else { return false }
    await withCheckedContinuation { continuation in
      if waitingByClient[client] == nil { turns.append(client) }
      waitingByClient[client, default: []].append(continuation)
      waiting += 1
    }
    return true
  }

  /// Frees `client`'s worker and hands free workers to the clients waiting, in turn.
  func leave(_ client: String) {
    running -= 1
    runningByClient[client, default: 1] -= 1
    if runningByClient[client] == 0 { runningByClient[client] = nil }
    var skipped = 0
    while running < workers && skipped < turns.count {
      let next = turns.removeFirst()
      guard runningByClient[next, default: 0] < workersPerClient, var queue = waitingByClient[next] else {
        turns.append(next)
        skipped += 1
        continue
      }
      let continuation = queue.removeFirst()
      waitingByClient[next] = queue.isEmpty ? nil : queue
      if !queue.isEmpty { turns.append(next) }
      waiting -= 1
      start(next)
      skipped = 0
      continuation.resume()
    }
  }

  /// Whether a request is waiting (the tests).
  var hasWaiting: Bool { waiting > 0 }
  /// How many requests wait for a sandbox now (`kaleidoscope_queue_depth`).
  var waitingCount: Int { waiting }

  private func start(_ client: String) {
    running += 1
    runningByClient[client, default: 0] += 1
  }

  /// Runs `work` on a worker for `client`, or returns nil when the queue is full.
  func admitting<T: Sendable>(_ client: String, _ work: @Sendable () async throws -> T) async throws -> T? {
    guard await enter(client) else { return nil }
    do {
      let result = try await work()
      leave(client)
      return result
    } catch {
      leave(client)
      throw error
    }
  }
}
