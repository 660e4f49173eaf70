import Foundation
import Logging
import PostgresNIO

/// Snippets in a PostgreSQL database, which any number of stateless servers can share. The
/// client pools connections and runs as one of the server's services.
final class PostgresSnippetStore: SnippetStore {
  let client: PostgresClient
  private let logger: Logger
  private let schema = SchemaOnce()

  /// A store for `url` (`postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`); it connects
  /// when the client runs.
  init(url: String, logger: Logger) throws {
    guard let parts = URLComponents(string: url), ["postgresql", "postgres"].contains(parts.scheme ?? ""),
      let host = parts.host, !host.isEmpty
    else {
      throw PlaygroundError.configuration("expected postgresql://USER@HOST[:PORT]/DATABASE, not '\(url)'")
    }
    let database = String(parts.path.drop { $0 == "/" })
    let configuration = PostgresClient.Configuration(
      host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres", password: parts.password,
      database: database.isEmpty ? nil : database, tls: .disable)
    client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.logger = logger
  }

  func insert(id: String, source: String) async throws -> Bool {
    try await ensureSchema()
    let rows = try await client.query(
      "INSERT INTO snippets (id, source) VALUES (\(id), \(source)) ON CONFLICT (id) DO NOTHING RETURNING id",
      logger: logger)
    for try await _ in rows { return true }
    return false
  }

  func source(of id: String) async throws -> String? {
    try await ensureSchema()
    let rows = try await client.query("SELECT source FROM snippets WHERE id = \(id)", logger: logger)
    for try await source in rows.decode(String.self) { return source }
    return nil
  }

  /// The client's connections close when its service stops with the server.
  func close() async {}

  /// Whether the database answers a query within a second (the pool keeps trying to
  /// connect to a database that is down: the wait is abandoned, `StoreCall`).
  func isReady() async -> Bool {
    let client = client
    let logger = logger
    do {
      return try await StoreCall.withDeadline(.seconds(1)) {
        let rows = try await client.query("SELECT 1", logger: logger)
        for try await _ in rows {}
        return true
      }
    } catch {
      return false
    }
  }

  func cachedResult(_ key: String) async throws -> Data? {
    try await ensureSchema()
    let rows = try await client.query("SELECT answer FROM results WHERE key = \(key)", logger: logger)
    for try await answer in rows.decode(ByteBuffer.self) { return Data(buffer: answer) }
    return nil
  }

  /// The newest are those with the largest serial numbers.
  func saveResult(_ key: String, _ data: Data) async throws {
    try await ensureSchema()
    let answer = ByteBuffer(data: data)
    try await client.query(
      "INSERT INTO results (key, answer) VALUES (\(key), \(answer)) ON CONFLICT (key) DO NOTHING", logger: logger)
    try await client.query(
      "DELETE FROM results WHERE number <= (SELECT max(number) FROM results) - \(resultLimit)", logger: logger)
  }

  /// Creates the table the first time it is needed. Servers starting together may race to
  /// create it; the loser's error is harmless, so creation is tried once more.
  private func ensureSchema() async throws {
    guard await schema.needed() else { return }
    let creates: [PostgresQuery] = [
      "CREATE TABLE IF NOT EXISTS snippets (id TEXT PRIMARY KEY, source TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now())",
      "CREATE TABLE IF NOT EXISTS results (number BIGSERIAL, key TEXT PRIMARY KEY, answer BYTEA NOT NULL)",
    ]
    for create in creates {
      do {
        try await client.query(create, logger: logger)
      } catch {
        try await client.query(create, logger: logger)
      }
    }
    await schema.done()
  }
}

/// Remembers that the table exists.
private actor SchemaOnce {
  private var created = false
  func needed() -> Bool { !created }
  func done() { created = true }
}

/// A configuration the server cannot start with.
enum PlaygroundError: Error, CustomStringConvertible {
  case configuration(String)

  var description: String {
    switch self {
    case .configuration(let message): message
    }
  }
}
