/// A source line as a diagnostic shows it: each character in the places it takes on screen,
/// with the bytes that would not print safely spelled out.
///
/// A character takes one place (a tab stays a tab, so that the marker under it lines up
/// however the terminal expands it); a control character is shown as `<U+0001>` and a byte
/// that does not start valid UTF-8 as `<FF>`, as clang shows them. Columns are byte offsets
/// into the line, as diagnostics count them.
struct SourceLineDisplay {
  /// One character, or one byte that is not UTF-8: where its bytes are and how it is shown.
  private struct Piece {
    let start: Int
    let bytes: Int
    let text: String
    let width: Int

    init(start: Int, bytes: Int, text: String) {
      self.start = start
      self.bytes = bytes
      self.text = text
      width = text.count
    }
  }

  private let pieces: [Piece]

  /// The most places a line may take before it is cut to the part around the caret.
  static let widest = 160
  /// The places kept before the caret when a line is cut.
  static let before = 60

  init(_ line: ArraySlice<UInt8>) {
    var pieces: [Piece] = []
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = line.makeIterator()
    var offset = 0
    parsing: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        let unprintable = (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
        let text = unprintable ? "<" + DiagnosticMessage.codePoint(scalar.value) + ">" : String(Character(scalar))
        pieces.append(Piece(start: offset, bytes: encoded.count, text: text))
        offset += encoded.count
      case .error(let length):
        for byte in line.dropFirst(offset).prefix(length) {
          pieces.append(Piece(start: offset, bytes: 1, text: "<" + DiagnosticMessage.hex(byte, digits: 2) + ">"))
          offset += 1
        }
      case .emptyInput:
        break parsing
      }
    }
    self.pieces = pieces
  }

  /// The line as shown, and the marker line under it: `^` under the character at byte
  /// `caret` (after the line's end, if it is there) and `~` under the rest up to byte `end`.
  /// A line wider than `widest` shows only the part around the caret, `...` where it is cut.
  func window(caret: Int, end: Int) -> (text: String, marker: String) {
    let caretPiece = pieces.firstIndex { $0.start + $0.bytes > caret } ?? pieces.count
    var (first, last) = (0, pieces.count)
    if pieces.reduce(0, { $0 + $1.width }) > Self.widest {
      first = caretPiece
      var width = 0
      while first > 0, width + pieces[first - 1].width <= Self.before {
        first -= 1
        width += pieces[first].width
      }
      (last, width) = (first, 0)
      while last < pieces.count, width + pieces[last].width <= Self.widest {
        width += pieces[last].width
        last += 1
      }
    }
    var text = first > 0 ? "..." : ""
    var marker = first > 0 ? "   " : ""
    for index in first..<last {
      let piece = pieces[index]
      text += piece.text
      if index < caretPiece {
        marker += piece.text == "\t" ? "\t" : String(repeating: " ", count: piece.width)
      } else if index == caretPiece {
        marker += "^" + String(repeating: "~", count: piece.width - 1)
      } else if piece.start < end {
        marker += String(repeating: "~", count: piece.width)
      }
    }
    if caretPiece == pieces.count {
      let length = pieces.last.map { $0.start + $0.bytes } ?? 0
      marker += String(repeating: " ", count: max(0, caret - length)) + "^"
    }
    return (text + (last < pieces.count ? "..." : ""), marker)
  }
}
