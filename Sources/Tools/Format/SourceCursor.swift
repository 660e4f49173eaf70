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
/// Tokens are lexed as they are read, so a cursor is small and cheap to copy (a measuring
/// printer reads ahead on a copy), and a large file is never held as an array of tokens.
/// The bytes are read through a pointer that `Formatter.format` keeps valid.
struct SourceCursor {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var lexer: Lexer
  /// The next token to write (`.endOfFile` at the end).
  private var current: Token
  /// Where the token before `current` ends (0 at the start of the file).
  private var previousEnd = 0
  /// The comments between the previous token and `current` not yet written.
  private var comments: ArraySlice<Comment> = []

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    lexer = Lexer(bytes: bytes)
    current = lexer.next()
    comments = Self.comments(in: bytes, from: 0, to: current.range.start)
  }

  /// The next token, without taking it.
  var peek: Token? { current.kind == .endOfFile ? nil : current }

  /// Where the last token taken ends (0 at the start): a mark to skip to (`skip(to:)`).
  var previousTokenEnd: Int { previousEnd }

  /// Takes the next token, which the printer expects to be of `kind`.
  mutating func take(_ kind: TokenKind) -> Token {
    let token = current
    precondition(token.kind == kind, "the printer writes the source's tokens in order")
    advance(to: lexer.next(), after: token.range.end)
    return token
  }

  /// Takes the next token if it is of `kind`.
  mutating func take(ifNext kind: TokenKind) -> Token? {
    guard current.kind == kind else { return nil }
    return take(kind)
  }

  /// Goes on from `end`, the end of a token, without reading the tokens before it (when
  /// measuring text measured before); the comments among them are passed over too.
  mutating func skip(to end: Int) {
    lexer = Lexer(bytes: bytes, position: end)
    advance(to: lexer.next(), after: end)
  }

  private mutating func advance(to token: Token, after end: Int) {
    previousEnd = end
    current = token
    comments = Self.comments(in: bytes, from: end, to: token.range.start)
  }

  /// The comments before the next token (or, at the end, the rest), taking them.
  mutating func takeComments() -> ArraySlice<Comment> {
    defer { comments = [] }
    return comments
  }

  /// The comment before the next token when it trails the previous one, taking it.
  mutating func takeTrailingComment() -> Comment? {
    guard let first = comments.first, first.isTrailing else { return nil }
    comments = comments.dropFirst()
    return first
  }

  /// Whether a comment comes before the next token.
  var hasCommentBeforeNext: Bool { !comments.isEmpty }

  /// The comments in a gap between two tokens (`start` is 0 before the first), which holds
  /// only whitespace and comments. (Static, so that no copy of the cursor is made.)
  private static func comments(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int) -> ArraySlice<
    Comment
  > {
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
    return found[...]
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// Whether an empty line comes before the next token, after the previous token or the
  /// comment before it (at the start of the file, only after a comment).
  func blankLineBeforeNext() -> Bool {
    guard peek != nil else { return false }
    var newlines = 0
    var position = current.range.start - 1
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
