import FoundationEssentials

/// A JSON-RPC message as it arrived: its bytes and its envelope (id, method, whether it is a
/// response). Parameters are decoded from the same bytes straight into the type each method
/// takes (`params(as:)`), by Foundation's Codable decoder, with no JSON value in between.
public struct IncomingMessage: Sendable {
  public let body: Data
  /// The request's id (a number or a string); nil for a notification.
  public let id: JSON?
  /// Nil when absent or not a string.
  public let method: String?
  /// Whether it has a `result` or an `error`: a response, not a request.
  public let isResponse: Bool

  /// Reads the envelope of `body`; nil when `body` is not JSON. JSON that is not an object
  /// has neither id nor method.
  public init?(body: Data) {
    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: body) else { return nil }
    self.body = body
    id = envelope.id
    method = envelope.method
    isResponse = envelope.isResponse
  }

  /// A message given as a value (the tests').
  public init(_ message: JSON) {
    self.init(body: Data(message.serialized()))!
  }

  /// The message's `params` as `type`.
  public func params<Params: Decodable>(as type: Params.Type) throws -> Params {
    try JSONDecoder().decode(ParamsEnvelope<Params>.self, from: body).params
  }

  private enum Key: String, CodingKey {
    case id, method, result, error, params
  }

  /// What every incoming message is read for first: its id, its method, and whether it answers one
  /// of ours.
  private struct Envelope: Decodable {
    var id: JSON?
    var method: String?
    var isResponse = false

    init(from decoder: Decoder) throws {
      // Anything but an object is a message without an id or a method, not a parse error.
      guard let container = try? decoder.container(keyedBy: Key.self) else { return }
      id = container.contains(.id) ? try? container.decode(JSON.self, forKey: .id) : nil
      method = try? container.decode(String.self, forKey: .method)
      isResponse = container.contains(.result) || container.contains(.error)
    }
  }

  /// A message read again for its `params`, once the method says their type.
  private struct ParamsEnvelope<Params: Decodable>: Decodable {
    var params: Params
  }
}

/// A message the server sends, encoded by Foundation's encoder straight from typed values.
public enum OutgoingMessage {
  case result(id: JSON, any Encodable)
  case error(id: JSON, code: Int, message: String)
  case notification(method: String, params: any Encodable)

  /// Its JSON text, keys sorted, so that the same message is always the same text.
  public func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every message is made of encodable values; the fallback is never taken.
    return (try? Array(encoder.encode(Envelope(message: self)))) ?? Array("{}".utf8)
  }

  /// The JSON-RPC object around an outgoing message.
  private struct Envelope: Encodable {
    let message: OutgoingMessage

    private enum Key: String, CodingKey {
      case jsonrpc, id, result, error, method, params
    }

    /// A response's `error` member.
    private struct ErrorObject: Encodable {
      var code: Int
      var message: String
    }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode("2.0", forKey: .jsonrpc)
      switch message {
      case .result(let id, let result):
        try container.encode(id, forKey: .id)
        try container.encode(result, forKey: .result)
      case .error(let id, let code, let message):
        try container.encode(id, forKey: .id)
        try container.encode(ErrorObject(code: code, message: message), forKey: .error)
      case .notification(let method, let params):
        try container.encode(method, forKey: .method)
        try container.encode(params, forKey: .params)
      }
    }
  }
}
