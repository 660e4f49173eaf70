/// The formatted text as it is written, line by line: where the line is, how deep the
/// indentation is, and, when only measuring, whether anything broke the line.
struct LineWriter {
  /// The text so far (empty when measuring).
  private(set) var bytes: [UInt8] = []
  /// The column of the next character (0-based), counting a pending space and, at the start
  /// of a line, the indentation.
  var column: Int { atLineStart ? indentation : writtenColumn + (pendingSpace ? 1 : 0) }
  private var writtenColumn = 0
  /// A space asked for and not yet written: it is dropped at the end of a line, so no line
  /// ends in a space.
  private var pendingSpace = false
  /// The indentation of the lines to come, in spaces.
  var indentation = 0
  /// Whether the text is only measured: nothing is kept, and a line break is noted.
  let measuring: Bool
  /// How many lines were ended while measuring (any means the text cannot be one line).
  private(set) var breaks = 0
  var broke: Bool { breaks > 0 }
  private var atLineStart = true
  /// How many line breaks end the text (for blank lines: at most two in a row).
  private var trailingNewlines = 0
  /// How many lines the text has ended.
  private var lineCount = 0
  /// The comments that trail a line, to be aligned (`alignedText`).
  private var trailingComments: [TrailingComment] = []

  /// Where a trailing comment was written.
  private struct TrailingComment {
    var line: Int
    /// The offset in `bytes` where the code before it ends, and its column.
    var codeEnd: Int
    var column: Int
  }

  init(measuring: Bool = false, capacity: Int = 0) {
    self.measuring = measuring
    bytes.reserveCapacity(capacity)
  }

  var isAtLineStart: Bool { atLineStart }

  mutating func write<Text: Collection>(_ text: Text) where Text.Element == UInt8 {
    startText()
    // Byte by byte: a token is a few bytes, for which `append(contentsOf:)`'s set-up costs
    // more than the copy.
    if !measuring { for byte in text { bytes.append(byte) } }
    writtenColumn += text.count
  }

  /// Counts `width` columns of text without writing them (when measuring, for text whose
  /// width is known).
  mutating func skip(width: Int) {
    startText()
    writtenColumn += width
  }

  /// Writes the indentation at the start of a line and a pending space.
  private mutating func startText() {
    if atLineStart {
      if !measuring { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation)) }
      writtenColumn = indentation
      atLineStart = false
    }
    if pendingSpace {
      if !measuring { bytes.append(UInt8(ascii: " ")) }
      writtenColumn += 1
      pendingSpace = false
    }
    trailingNewlines = 0
  }

  mutating func write(_ text: StaticString) {
    write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// One space, unless at the start of a line.
  mutating func space() {
    if !atLineStart { pendingSpace = true }
  }

  /// A comment that trails the line: two spaces after the last token.
  mutating func trailingComment<Text: Collection>(_ text: Text) where Text.Element == UInt8 {
    pendingSpace = false
    if !measuring {
      trailingComments.append(TrailingComment(line: lineCount, codeEnd: bytes.count, column: writtenColumn))
    }
    write("  ")
    write(text)
  }

  /// The most a comment is moved right to line up with the others.
  static let alignmentReach = 24

  /// The text, with the comments that trail consecutive lines aligned in one column, two
  /// spaces after the longest line of code among them, when that keeps every line within
  /// `width`; a line whose code is far longer or shorter than the lines before it (more
  /// than `alignmentReach` columns) starts a new run.
  func alignedText(width: Int) -> [UInt8] {
    var padding: [(offset: Int, count: Int)] = []
    var start = 0
    while start < trailingComments.count {
      var end = start + 1
      var (narrowest, widest) = (trailingComments[start].column, trailingComments[start].column)
      while end < trailingComments.count && trailingComments[end].line == trailingComments[end - 1].line + 1 {
        let column = trailingComments[end].column
        guard max(widest, column) - min(narrowest, column) <= Self.alignmentReach else { break }
        (narrowest, widest) = (min(narrowest, column), max(widest, column))
        end += 1
      }
      let run = trailingComments[start..<end]
      let target = run.map(\.column).max()!
      let fits = run.indices.allSatisfy { index in
        target + 2 + commentWidth(at: trailingComments[index].codeEnd + 2) <= width
      }
      if run.count > 1 && fits {
        for comment in run where comment.column < target { padding.append((comment.codeEnd, target - comment.column)) }
      }
      start = end
    }
    guard !padding.isEmpty else { return bytes }
    var aligned: [UInt8] = []
    aligned.reserveCapacity(bytes.count + padding.reduce(0) { $0 + $1.count })
    var copied = 0
    for (offset, count) in padding {
      aligned += bytes[copied..<offset]
      aligned += repeatElement(UInt8(ascii: " "), count: count)
      copied = offset
    }
    aligned += bytes[copied...]
    return aligned
  }

  /// The width of the text from `offset` to the end of its line.
  private func commentWidth(at offset: Int) -> Int {
    var end = offset
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    return end - offset
  }

  /// Ends the line, unless it is empty.
  mutating func newline() {
    guard !atLineStart else { return }
    breakLine()
  }

  /// Leaves one empty line before what comes next (none at the start of the text).
  mutating func blankLine() {
    newline()
    if trailingNewlines == 1 { breakLine() }
  }

  private mutating func breakLine() {
    if measuring {
      breaks += 1
    } else {
      bytes.append(UInt8(ascii: "\n"))
    }
    trailingNewlines += 1
    lineCount += 1
    atLineStart = true
    pendingSpace = false
    writtenColumn = 0
  }
}
