import Synchronization

/// A file of Kaleidoscope source: its name (as diagnostics print it) and its UTF-8 bytes.
///
/// Every position in the front end is a byte offset into `bytes`. Lines and columns are only
/// needed when something is shown to a person, so the line table is built on first use.
public final class SourceFile: Sendable {
  /// The name diagnostics print: a path as the user typed it, `<stdin>`, or `<repl>`.
  public let name: String
  /// The source text, exactly as read (not required to be valid UTF-8).
  public let bytes: [UInt8]

  /// Offsets at which each line starts; built on first use. Line `n` (1-based) starts at
  /// `lineStarts[n - 1]`.
  private let cachedLineStarts = Mutex<[Int]?>(nil)

  public init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }

  public convenience init(name: String, text: String) {
    self.init(name: name, bytes: Array(text.utf8))
  }

  /// The offsets at which lines start. A line ends at `\n`; `\r\n` counts as one line break.
  /// The first line starts after a byte-order mark, so columns count as an editor shows them.
  public var lineStarts: [Int] {
    cachedLineStarts.withLock { cached in
      if let cached { return cached }
      var starts = [bytes.withUnsafeBufferPointer(Self.byteOrderMarkLength)]
      for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        starts.append(offset + 1)
      }
      cached = starts
      return starts
    }
  }

  /// The 1-based line and column of a byte offset. Columns count bytes, as clang's do.
  public func location(of offset: Int) -> SourceLocation {
    let starts = lineStarts
    // The last line start that is <= offset.
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return SourceLocation(line: low + 1, column: max(1, offset - starts[low] + 1))
  }

  /// 3 when `bytes` start with a UTF-8 byte-order mark (EF BB BF), else 0.
  static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// The text of a 1-based line, without its line break.
  public func lineText(_ line: Int) -> ArraySlice<UInt8> {
    let starts = lineStarts
    guard line >= 1 && line <= starts.count else { return [] }
    let start = starts[line - 1]
    var end = line < starts.count ? starts[line] - 1 : bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return bytes[start..<max(start, end)]
  }

  /// The source text in a range, decoded leniently.
  public func text(in range: SourceRange) -> String {
    let start = min(max(0, range.start), bytes.count)
    let end = min(max(start, range.end), bytes.count)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// A half-open range of byte offsets `[start, end)` in one source file.
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  public var start: Int
  public var end: Int

  public init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  /// An empty range at `offset`, for "expected ..." errors at a point.
  public static func point(_ offset: Int) -> SourceRange { SourceRange(start: offset, end: offset) }

  /// The smallest range covering both.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  public var length: Int { end - start }
  public var description: String { "\(start)..<\(end)" }
}

/// A human position: 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "\(line):\(column)" }
}
