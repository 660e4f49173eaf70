import FoundationEssentials

/// A JSON value: the envelope of every JSON-RPC message, and the parameters and results in
/// it before they are decoded into (or after they are encoded from) the typed structures of
/// `Protocol.swift`.
public enum JSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([String: JSON])

  /// The member `key` of an object (`nil` for anything else or a missing key).
  public subscript(key: String) -> JSON? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// Parses JSON text; `nil` when it is not exactly one JSON value (or nests deeper than
  /// Foundation's decoder allows, 512 levels, so no message can exhaust the stack).
  public static func parse(_ bytes: [UInt8]) -> JSON? {
    try? JSONDecoder().decode(JSON.self, from: Data(bytes))
  }

  /// The compact JSON text of this value, its keys sorted, so that the same value is always
  /// the same text (tests compare it).
  public func serialized() -> [UInt8] {
    // A JSON value always encodes; the fallback is never taken.
    (try? Array(Self.encoder.encode(self))) ?? Array("null".utf8)
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}

extension JSON: Codable {
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSON].self))
    }
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByArrayLiteral, ExpressibleByBooleanLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}
