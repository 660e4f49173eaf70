/// The text of `kaleidoscope tokens`: one token per line, `LINE:COL  category  text`.
public enum TokenListing {
  public static func render(_ tokens: [Token], in file: SourceFile) -> String {
    var out = ""
    for token in tokens {
      var line = pad(file.location(of: token.range.start).description, 9)
      line += token.kind == .endOfFile ? token.kind.category : pad(token.kind.category, 12)
      line += escaped(file.bytes[token.range.start..<token.range.end])
      out += line + "\n"
    }
    return out
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.utf8.count))
  }

  /// The token's bytes, with anything unprintable shown as `\xNN` so the listing stays one
  /// token per line and safe for a terminal.
  static func escaped(_ bytes: ArraySlice<UInt8>) -> String {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return String(decoding: bytes, as: UTF8.self)
    }
    if bytes.allSatisfy({ $0 >= 0x80 }), let text = String(validating: bytes, as: UTF8.self) {
      return text
    }
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      if byte >= 0x20 && byte < 0x7F {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "\\"), UInt8(ascii: "x"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
