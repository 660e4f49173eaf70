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

  /// Parses JSON text; `nil` when it is not JSON (or nests deeper than `JSONParser`
  /// allows).
  public static func parse(_ bytes: [UInt8]) -> JSON? {
    var parser = JSONParser(bytes)
    return parser.document()
  }

  /// A typed value encoded as JSON.
  public init<Value: Encodable>(encoding value: Value) throws {
    guard let json = JSON.parse(Array(try JSONEncoder().encode(value))) else {
      throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "not JSON"))
    }
    self = json
  }

  /// This value decoded into a typed one.
  public func decode<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
    try JSONDecoder().decode(type, from: Data(serialized()))
  }

  /// The compact JSON text of this value.
  public func serialized() -> [UInt8] {
    var out: [UInt8] = []
    write(to: &out)
    return out
  }

  private func write(to out: inout [UInt8]) {
    switch self {
    case .null: out += Array("null".utf8)
    case .bool(let value): out += Array((value ? "true" : "false").utf8)
    case .number(let value): out += Array(Self.text(of: value).utf8)
    case .string(let value): Self.write(string: value, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        element.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      // Sorted keys: the same value is always the same text (tests compare it).
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.write(string: key, to: &out)
        out.append(UInt8(ascii: ":"))
        members[key]!.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Whole numbers without a fraction (ids, positions), others as Swift prints them.
  private static func text(of value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  private static func write(string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
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
