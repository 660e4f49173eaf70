/// String literals: `"text"` with the escapes `\n`, `\t`, `\\`, `\"`, `\0` and `\xHH`, on one
/// line. Other bytes, UTF-8 included, stand for themselves. The lexer checks a literal with
/// `scan`; the parser reads its bytes with `bytes(of:)`.
enum StringLiteral {
  /// Where the literal that opens at `start` (a `"`) ends, just after its closing quote or,
  /// when it has none on this line, at the end of the line; and its first error, if any.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (position: Int, error: LexError?) {
    var position = start + 1
    var error: LexError?
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "\""):
        return (position + 1, error)
      case UInt8(ascii: "\n"):
        return (position, .unterminatedString)
      case UInt8(ascii: "\\"):
        let length = escapeLength(bytes, at: position)
        if length == 0, error == nil {
          error = .invalidEscape(position + 1 < bytes.count ? bytes[position + 1] : 0)
        }
        position += max(length, 1)
      default:
        position += 1
      }
    }
    return (position, .unterminatedString)
  }

  /// The length of the valid escape at `position` (a `\`), or 0.
  private static func escapeLength(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Int {
    guard position + 1 < bytes.count else { return 0 }
    switch bytes[position + 1] {
    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "0"):
      return 2
    case UInt8(ascii: "x"):
      guard position + 3 < bytes.count, hexValue(bytes[position + 2]) != nil, hexValue(bytes[position + 3]) != nil
      else { return 0 }
      return 4
    default:
      return 0
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The bytes a valid literal stands for; `literal` is its text, quotes included.
  static func bytes(of literal: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
    var result: [UInt8] = []
    var position = literal.startIndex + 1
    let end = literal.endIndex - 1
    while position < end {
      let byte = literal[position]
      guard byte == UInt8(ascii: "\\") else {
        result.append(byte)
        position += 1
        continue
      }
      switch literal[position + 1] {
      case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
      case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
      case UInt8(ascii: "0"): result.append(0)
      case UInt8(ascii: "x"):
        result.append(hexValue(literal[position + 2])! << 4 | hexValue(literal[position + 3])!)
        position += 2
      default: result.append(literal[position + 1])  // `\\` and `\"`
      }
      position += 2
    }
    return result
  }
}
