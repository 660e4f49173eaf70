import Foundation
import SQLiteNIO

/// Snippets in an SQLite file, written ahead and synced (WAL, `synchronous=FULL`), so that a
/// snippet whose id was returned survives a crash of the server or the machine.
actor SQLiteSnippetStore: SnippetStore {
  private let connection: SQLiteConnection

  private init(connection: SQLiteConnection) {
    self.connection = connection
  }

  /// Opens (creating if need be) the database at `path` and its folder.
  static func open(path: String) async throws -> SQLiteSnippetStore {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    let connection = try await SQLiteConnection.open(storage: .file(path: path))
    for statement in [
      "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA busy_timeout=5000",
      "CREATE TABLE IF NOT EXISTS snippets (id TEXT PRIMARY KEY, source TEXT NOT NULL, created INTEGER NOT NULL)",
      "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, answer BLOB NOT NULL)",
    ] {
      _ = try await connection.query(statement, [])
    }
    return SQLiteSnippetStore(connection: connection)
  }

  /// The default file: `$XDG_DATA_HOME/kaleidoscope/snippets.sqlite`, where XDG_DATA_HOME
  /// defaults to `~/.local/share`.
  static var defaultPath: String {
    let environment = ProcessInfo.processInfo.environment
    let data =
      environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
    return data + "/kaleidoscope/snippets.sqlite"
  }

  func insert(id: String, source: String) async throws -> Bool {
    let rows = try await connection.query(
      "INSERT INTO snippets (id, source, created) VALUES (?, ?, strftime('%s','now')) ON CONFLICT (id) DO NOTHING RETURNING id",
      [.text(id), .text(source)])
    return !rows.isEmpty
  }

  func close() async {
    try? await connection.close()
  }

  /// A file of this process's own is always there.
  func isReady() async -> Bool { true }

  func cachedResult(_ key: String) async throws -> Data? {
    let rows = try await connection.query("SELECT answer FROM results WHERE key = ?", [.text(key)])
    guard case .blob(let buffer) = rows.first?.column("answer") else { return nil }
    return Data(buffer: buffer)
  }

  /// The newest are those with the largest rowids: SQLite numbers rows in insertion order.
  func saveResult(_ key: String, _ data: Data) async throws {
    _ = try await connection.query(
      "INSERT OR REPLACE INTO results (key, answer) VALUES (?, ?)", [.text(key), .blob(ByteBuffer(data: data))])
    _ = try await connection.query(
      "DELETE FROM results WHERE rowid <= (SELECT max(rowid) FROM results) - ?", [.integer(resultLimit)])
  }

  func source(of id: String) async throws -> String? {
    let rows = try await connection.query("SELECT source FROM snippets WHERE id = ?", [.text(id)])
    return rows.first?.column("source")?.string
  }
}
