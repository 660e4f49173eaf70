import Foundation

/// Where shared programs are kept: SQLite on one machine (`SQLiteSnippetStore`), or one
/// PostgreSQL database shared by several servers (`PostgresSnippetStore`).
protocol SnippetStore: Sendable {
  /// Stores `source` durably under `id`; false when `id` is taken.
  func insert(id: String, source: String) async throws -> Bool
  /// The source stored under `id`, or nil.
  func source(of id: String) async throws -> String?
  /// Releases the store's connections once the server has stopped.
  func close() async
  /// Whether the store answers now (`/readyz`).
  func isReady() async -> Bool
  /// A cached answer (`ResultCache`), or nil.
  func cachedResult(_ key: String) async throws -> Data?
  /// Keeps an answer, and forgets all but the newest `resultLimit`.
  func saveResult(_ key: String, _ data: Data) async throws
}

/// How many cached answers a store keeps.
let resultLimit = 10_000

extension SnippetStore {
  /// Stores `source` under a new id and returns the id.
  func save(_ source: String) async throws -> String {
    while true {
      let id = SnippetID.random()
      if try await insert(id: id, source: source) { return id }
    }
  }
}

/// Snippet ids: ten characters from 62, drawn from the system's secure generator, so about
/// 59 bits that cannot be guessed or enumerated.
enum SnippetID {
  static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  static let length = 10

  static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `text` could be an id; anything else is answered 404 without a query.
  static func isWellFormed(_ text: some StringProtocol) -> Bool {
    text.utf8.count == length && text.utf8.allSatisfy { alphabet.contains($0) }
  }
}
