import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A token bucket per client: each may make `perMinute` requests a minute, in bursts of up
/// to as many. Clients are told apart by address; the buckets of clients that have been
/// quiet long enough to be full again are forgotten, so the table stays small.
final class RateLimiter: Sendable {
  /// A client's tokens and when they were last counted (seconds of the monotonic clock).
  private struct Bucket {
    var tokens: Double
    var updated: Double
  }

  private let perMinute: Int
  private let buckets = Mutex<[String: Bucket]>([:])

  /// `perMinute` 0 allows everything.
  init(perMinute: Int) {
    self.perMinute = perMinute
  }

  /// Whether `client` may make a request now; if not, after how many seconds it may.
  func admit(_ client: String, now: Double = RateLimiter.now()) -> (allowed: Bool, retryAfter: Int) {
    guard perMinute > 0 else { return (true, 0) }
    let capacity = Double(perMinute)
    let perSecond = capacity / 60
    return buckets.withLock { buckets in
      if buckets.count > 10_000 {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * perSecond < capacity }
      }
      var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: now)
      bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * perSecond)
      bucket.updated = now
      defer { buckets[client] = bucket }
      guard bucket.tokens >= 1 else { return (false, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
      bucket.tokens -= 1
      return (true, 0)
    }
  }

  /// Seconds on a monotonic clock.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
