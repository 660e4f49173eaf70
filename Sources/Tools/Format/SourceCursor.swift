import KaleidoscopeFrontend

/// A comment in the source: `#` to the end of its line.
struct Comment {
  var range: SourceRange
  /// Whether it follows a token on the same line (`x + 1  # why`), rather than standing on
  /// a line of its own.
  var isTrailing: Bool
  /// Whether an empty line separates it from what comes before it.
  var followsBlankLine: Bool
}

/// The source's tokens and comments, read in order while the printer writes them.
///
/// The printer takes every token it writes from here, in source order, so the formatted
/// text has the source's tokens, spelled as written: only semicolons that separate nothing
/// are dropped, and commas between parameters, which are optional, are added. The comments
/// between two tokens come out between the same two tokens.
///
/// A cursor is a position among the file's tokens, lexed once (`LexedToken`), so it is
/// small and cheap to copy (a measuring printer reads ahead on a copy). The bytes and the
/// tokens are read through pointers that `Formatter.format` keeps valid.
struct SourceCursor {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let tokens: UnsafeBufferPointer<LexedToken>
  /// The next token to write, by its index in `tokens` (the end of file's at the end).
  private(set) var position = 0
  /// How many of the comments between the previous token and the next one are written.
  /// They are found again when asked for (`gapComments`): comments are rare, and a cursor
  /// that holds none copies without reference counting.
  private var commentsTaken = 0

  init(bytes: UnsafeBufferPointer<UInt8>, tokens: UnsafeBufferPointer<LexedToken>) {
    self.bytes = bytes
    self.tokens = tokens
  }

  /// The kind of the next token, without taking it (nil at the end).
  var next: TokenKind? { atEnd ? nil : tokens[position].kind }

  /// Whether the next token is the end of file's (the last).
  private var atEnd: Bool { position == tokens.count - 1 }

  /// Where the next token starts, and where the token before it ends (0 at the start).
  private var nextStart: Int { Int(tokens[position].start) }
  private var previousEnd: Int { position == 0 ? 0 : tokens[position - 1].end(in: bytes) }

  /// Takes the next token, which the printer expects to be of `kind`; its place in the
  /// source.
  mutating func take(_ kind: TokenKind) -> SourceRange {
    let token = tokens[position]
    precondition(token.kind == kind, "the printer writes the source's tokens in order")
    let range = SourceRange(start: Int(token.start), end: token.end(in: bytes))
    skip(to: position + 1)
    return range
  }

  /// Takes the next token if it is of `kind`.
  mutating func take(ifNext kind: TokenKind) -> SourceRange? {
    guard tokens[position].kind == kind else { return nil }
    return take(kind)
  }

  /// Goes on from the token at `next` (a `position` noted after text measured before, which
  /// is measured no more); the comments before it are passed over too.
  mutating func skip(to next: Int) {
    position = next
    commentsTaken = 0
  }

  /// The comments between the previous token and the next one (or, at the end, the rest),
  /// written or not.
  private var gapComments: [Comment] {
    guard tokens[position].followsComment else { return [] }
    return Self.comments(in: bytes, from: previousEnd, to: atEnd ? bytes.count : nextStart)
  }

  /// The comments before the next token (or, at the end, the rest), taking them.
  mutating func takeComments() -> ArraySlice<Comment> {
    let all = gapComments
    defer { commentsTaken = all.count }
    return all[commentsTaken...]
  }

  /// The comment before the next token when it trails the previous one, taking it.
  mutating func takeTrailingComment() -> Comment? {
    let all = gapComments
    guard commentsTaken < all.count, all[commentsTaken].isTrailing else { return nil }
    commentsTaken += 1
    return all[commentsTaken - 1]
  }

  /// Whether a comment comes before the next token.
  var hasCommentBeforeNext: Bool {
    tokens[position].followsComment && (commentsTaken == 0 || commentsTaken < gapComments.count)
  }

  /// The comments in a gap between two tokens (`start` is 0 before the first), which holds
  /// only whitespace and comments. (Static, so that no copy of the cursor is made.)
  private static func comments(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int) -> [Comment] {
    var found: [Comment] = []
    var newlines = 0
    var position = start
    while position < limit {
      switch bytes[position] {
      case UInt8(ascii: "\n"):
        newlines += 1
        position += 1
      case UInt8(ascii: "#"):
        let commentStart = position
        while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
        var end = position
        while end > commentStart && isBlank(bytes[end - 1]) { end -= 1 }
        found.append(
          Comment(
            range: SourceRange(start: commentStart, end: end), isTrailing: start > 0 && newlines == 0,
            followsBlankLine: newlines >= 2))
        newlines = 0
      default:
        position += 1
      }
    }
    return found
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// Whether an empty line comes before the next token, after the previous token or the
  /// comment before it (at the start of the file, only after a comment).
  func blankLineBeforeNext() -> Bool {
    guard next != nil else { return false }
    let previousEnd = previousEnd
    var newlines = 0
    var position = nextStart - 1
    while position >= previousEnd {
      switch bytes[position] {
      case UInt8(ascii: "\n"): newlines += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
      default: return newlines >= 2  // the end of a comment
      }
      position -= 1
    }
    return previousEnd > 0 && newlines >= 2
  }

  /// The text of a token or comment, as written.
  func text(_ range: SourceRange) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[range.start..<range.end])
  }
}
