import Crypto
import Foundation
import OrderedCollections

/// The answers of sandboxed runs and views, which are a pure function of the tool and the
/// request (SPEC §9): kept under the SHA-256 of both, in memory (least recently used out
/// first, within `memoryLimit` bytes) and in the snippet store, which several servers share
/// (the store keeps the newest `SnippetStore.resultLimit`). A store that does not answer is
/// a miss, never an error.
actor ResultCache {
  private let toolIdentity: [UInt8]
  private let store: any SnippetStore
  private let memoryLimit: Int
  /// From the least to the most recently used.
  private var entries: OrderedDictionary<String, Data> = [:]
  private var bytes = 0

  init(toolIdentity: String, store: any SnippetStore, memoryLimit: Int = 64 << 20) {
    self.toolIdentity = Array(toolIdentity.utf8)
    self.store = store
    self.memoryLimit = memoryLimit
  }

  /// The key of a request: the hexadecimal SHA-256 of the tool's identity and the request.
  nonisolated func key(for identity: [UInt8]) -> String {
    var hash = SHA256()
    hash.update(data: Array("\(toolIdentity.count)\n".utf8) + toolIdentity)
    hash.update(data: identity)
    return hash.finalize().map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
  }

  func lookup(_ key: String) async -> Data? {
    if let data = entries.removeValue(forKey: key) {
      entries[key] = data
      return data
    }
    let store = store
    guard let data = await Self.withDeadline({ try await store.cachedResult(key) }) else { return nil }
    remember(key, data)
    return data
  }

  /// Keeps the answer here at once and in the store in the background: the request does
  /// not wait for the database.
  func save(_ key: String, _ data: Data) {
    remember(key, data)
    let store = store
    Task { _ = await Self.withDeadline({ try await store.saveResult(key, data) }) }
  }

  /// `work`'s value, or nil when it fails or takes more than `storeDeadline` (a database
  /// that is down keeps its pool trying to connect: the wait is cancelled).
  private static func withDeadline<T: Sendable>(_ work: @Sendable @escaping () async throws -> T?) async -> T? {
    let task = Task { try? await work() }
    let deadline = Task {
      try await Task.sleep(for: storeDeadline)
      task.cancel()
    }
    defer { deadline.cancel() }
    return await task.value ?? nil
  }

  /// How long a request waits for the store's copy of an answer.
  static let storeDeadline = Duration.milliseconds(500)

  private func remember(_ key: String, _ data: Data) {
    guard data.count <= memoryLimit else { return }
    if let old = entries.removeValue(forKey: key) { bytes -= old.count }
    entries[key] = data
    bytes += data.count
    while bytes > memoryLimit, let oldest = entries.elements.first {
      entries.removeFirst()
      bytes -= oldest.value.count
    }
  }
}

/// Whether every sandboxed answer of one request came from the cache (`X-Cache: hit`).
final class CacheOutcome: @unchecked Sendable {
  private let lock = NSLock()
  private var hits = 0
  private var misses = 0

  func record(hit: Bool) {
    lock.withLock { if hit { hits += 1 } else { misses += 1 } }
  }

  var isHit: Bool { lock.withLock { hits > 0 && misses == 0 } }
}
