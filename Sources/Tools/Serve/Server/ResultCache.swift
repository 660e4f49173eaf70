import Crypto
import Foundation
import KaleidoscopeSandbox
import OrderedCollections

/// The answers of sandboxed runs and views, which are a pure function of the tool and the
/// request (SPEC §9): kept under the SHA-256 of both, in memory (least recently used out
/// first, within `memoryLimit` bytes) and in the snippet store, which several servers share
/// (the store keeps the newest `SnippetStore.resultLimit`). A store that does not answer is
/// a miss, never an error (`StoreCall`).
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

  /// A result as the cache keeps it: a binary property list, which holds the output as
  /// its bytes (JSON would write a trace's megabytes in Base64, then escape them).
  nonisolated static func data(of result: Sandbox.Result) -> Data? {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    return try? encoder.encode(result)
  }

  /// The result `data(of:)` made, or nil for anything else.
  nonisolated static func result(from data: Data) -> Sandbox.Result? {
    try? PropertyListDecoder().decode(Sandbox.Result.self, from: data)
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
    guard storeAnswers() else { return nil }
    let store = store
    do {
      guard let data = try await StoreCall.withDeadline(Self.storeDeadline, { try await store.cachedResult(key) })
      else { return nil }
      remember(key, data)
      return data
    } catch {
      storeFailedAt = .now
      return nil
    }
  }

  /// Keeps the answer here at once and in the store in the background: the request does
  /// not wait for the database.
  func save(_ key: String, _ data: Data) {
    remember(key, data)
    guard storeAnswers() else { return }
    let store = store
    Task { _ = try? await StoreCall.withDeadline(Self.storeDeadline, { try await store.saveResult(key, data) }) }
  }

  /// How long a request waits for the store's copy of an answer.
  static let storeDeadline = Duration.milliseconds(250)
  /// How long the store is left alone after it failed to answer in time, so that while the
  /// database is down a run does not wait for it each time.
  static let storeRest = Duration.seconds(5)
  private var storeFailedAt: ContinuousClock.Instant?

  private func storeAnswers() -> Bool {
    guard let failed = storeFailedAt else { return true }
    if ContinuousClock.now - failed < Self.storeRest { return false }
    storeFailedAt = nil
    return true
  }

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
