import KaleidoscopeFrontend

/// An open document: its text as the editor has it, and the conversions between the
/// protocol's positions (line, UTF-16 column) and the front end's byte offsets.
public struct Document: Sendable {
  public let uri: String
  public private(set) var version: Int
  public private(set) var bytes: [UInt8]
  /// The byte offset where each line starts.
  private var lineStarts: [Int] = [0]

  public init(uri: String, version: Int, text: String) {
    self.uri = uri
    self.version = version
    bytes = Array(text.utf8)
    indexLines()
  }

  /// The name diagnostics use: the file's path for a `file://` URI.
  public var name: String {
    guard uri.hasPrefix("file://") else { return uri }
    return Self.percentDecoded(uri.utf8.dropFirst("file://".count))
  }

  /// `%20` and the like decoded (a malformed escape is kept as written).
  static func percentDecoded(_ text: Substring.UTF8View) -> String {
    let bytes = Array(text)
    var decoded: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        decoded.append(high << 4 | low)
        index += 3
      } else {
        decoded.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Applies the editor's changes in order: a change without a range replaces everything.
  public mutating func apply(_ changes: [TextDocumentContentChangeEvent], version: Int) {
    for change in changes {
      if let range = change.range {
        let start = offset(of: range.start)
        let end = max(start, offset(of: range.end))
        bytes.replaceSubrange(start..<end, with: Array(change.text.utf8))
      } else {
        bytes = Array(change.text.utf8)
      }
      indexLines()
    }
    self.version = version
  }

  private mutating func indexLines() {
    lineStarts = [0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
  }

  public var lineCount: Int { lineStarts.count }

  /// The byte offset of a position; a position past the end of its line or of the document
  /// is taken to mean that end (editors send such positions, and they must not crash us).
  public func offset(of position: Position) -> Int {
    guard position.line >= 0 else { return 0 }
    guard position.line < lineStarts.count else { return bytes.count }
    var offset = lineStarts[position.line]
    let lineEnd = position.line + 1 < lineStarts.count ? lineStarts[position.line + 1] - 1 : bytes.count
    var units = 0
    while offset < lineEnd && units < position.character {
      let length = UTF8Sequence.length(of: bytes[offset])
      units += length == 4 ? 2 : 1
      offset = min(lineEnd, offset + length)
    }
    return offset
  }

  /// The position of a byte offset.
  public func position(of offset: Int) -> Position {
    let offset = min(max(0, offset), bytes.count)
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    var units = 0
    var cursor = lineStarts[low]
    while cursor < offset {
      let length = UTF8Sequence.length(of: bytes[cursor])
      units += length == 4 ? 2 : 1
      cursor += length
    }
    return Position(line: low, character: units)
  }

  public func range(of range: SourceRange) -> TextRange {
    TextRange(start: position(of: range.start), end: position(of: range.end))
  }

  /// The byte offsets of a protocol range, in order.
  public func sourceRange(of range: TextRange) -> SourceRange {
    let start = offset(of: range.start)
    let end = offset(of: range.end)
    return SourceRange(start: min(start, end), end: max(start, end))
  }

  /// The whole document, as a protocol range.
  public var fullRange: TextRange { TextRange(start: Position(line: 0, character: 0), end: position(of: bytes.count)) }

  /// The text of line `line` (zero-based), without its line break.
  public func line(_ line: Int) -> ArraySlice<UInt8> {
    guard line >= 0 && line < lineStarts.count else { return [] }
    let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    return bytes[lineStarts[line]..<end]
  }
}

/// How long a UTF-8 sequence is, from its first byte (1 for a stray continuation byte, so
/// that malformed text still advances).
enum UTF8Sequence {
  static func length(of byte: UInt8) -> Int {
    switch byte {
    case 0xF0...0xF7: 4
    case 0xE0...0xEF: 3
    case 0xC0...0xDF: 2
    default: 1
    }
  }
}
