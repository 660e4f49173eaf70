/// Reads JSON text (RFC 8259) into a `JSON` value: the server parses every message it
/// receives with it. Nesting is limited, so no message can exhaust the stack.
struct JSONParser {
  static let nestingLimit = 512

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The whole text as one value, or `nil` if it is not exactly one JSON value.
  mutating func document() -> JSON? {
    guard let value = value() else { return nil }
    skipWhitespace()
    return position == bytes.count ? value : nil
  }

  private mutating func value() -> JSON? {
    skipWhitespace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return nested { $0.object() }
    case UInt8(ascii: "["): return nested { $0.array() }
    case UInt8(ascii: "\""): return string().map(JSON.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func nested(_ body: (inout JSONParser) -> JSON?) -> JSON? {
    guard depth < Self.nestingLimit else { return nil }
    depth += 1
    defer { depth -= 1 }
    return body(&self)
  }

  private mutating func object() -> JSON? {
    position += 1  // {
    var members: [String: JSON] = [:]
    skipWhitespace()
    if take(UInt8(ascii: "}")) { return .object(members) }
    repeat {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
      skipWhitespace()
      guard take(UInt8(ascii: ":")), let value = value() else { return nil }
      members[key] = value
      skipWhitespace()
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}")) ? .object(members) : nil
  }

  private mutating func array() -> JSON? {
    position += 1  // [
    var elements: [JSON] = []
    skipWhitespace()
    if take(UInt8(ascii: "]")) { return .array(elements) }
    repeat {
      guard let element = value() else { return nil }
      elements.append(element)
      skipWhitespace()
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]")) ? .array(elements) : nil
  }

  private mutating func string() -> String? {
    position += 1  // "
    var text: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(validating: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { return nil }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = unicodeEscape() else { return nil }
          text += Array(String(Character(scalar)).utf8)
        default: return nil
        }
      case 0..<0x20:
        return nil  // control characters must be escaped
      default:
        text.append(byte)
      }
    }
    return nil
  }

  /// The scalar of `\uXXXX`, or of a surrogate pair `\uD83D\uDE00`.
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let first = hex4() else { return nil }
    if (0xD800..<0xDC00).contains(first) {
      guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let second = hex4(), (0xDC00..<0xE000).contains(second) else {
        return nil
      }
      return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    }
    return Unicode.Scalar(first)
  }

  private mutating func hex4() -> UInt32? {
    guard position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[position..<position + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    position += 4
    return value
  }

  private mutating func number() -> JSON? {
    let start = position
    while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
    guard position > start, let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else { return nil }
    return .number(value)
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
      UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default: false
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSON) -> JSON? {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count,
      bytes[position..<position + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { return nil }
    position += count
    return value
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  private mutating func skipWhitespace() {
    while position < bytes.count,
      bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\n") || bytes[position] == UInt8(ascii: "\t")
        || bytes[position] == UInt8(ascii: "\r")
    {
      position += 1
    }
  }
}
