import KaleidoscopeFrontend

/// One of the source's tokens as the printer reads it: its kind, where it starts and ends,
/// and whether a comment stands in the gap before it.
///
/// The printer reads every token at least twice (a measuring printer reads ahead, then the
/// printer writes it), and lexing each time cost it a sixth of its work; the tokens are
/// lexed once instead (`lex(_:)`), at 8 bytes each (a program has about one token for every
/// two or three bytes). A start fits 32 bits, since a source file is at most 2 GiB; a token
/// longer than 16 bits can hold (a long string literal) is lexed again for its end.
struct LexedToken {
  let start: UInt32
  private let length: UInt16
  let kind: TokenKind
  /// Whether a comment comes between the token before and this one (for the end of file:
  /// after the last token).
  let followsComment: Bool

  private static let longToken = UInt16.max

  init(_ token: Token, followsComment: Bool) {
    start = UInt32(truncatingIfNeeded: token.range.start)
    length = UInt16(clamping: token.range.end - token.range.start)
    kind = token.kind
    self.followsComment = followsComment
  }

  /// Where the token ends in `bytes`, the bytes it was lexed from.
  func end(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard length == Self.longToken else { return Int(start) + Int(length) }
    var lexer = Lexer(bytes: bytes, position: Int(start))
    return lexer.next().range.end
  }

  /// The tokens of `bytes`, ending with the end of file's.
  static func lex(_ bytes: UnsafeBufferPointer<UInt8>) -> [LexedToken] {
    var tokens: [LexedToken] = []
    tokens.reserveCapacity(bytes.count / 2 + 1)
    var lexer = Lexer(bytes: bytes)
    var previousEnd = 0
    while true {
      let token = lexer.next()
      let atEnd = token.kind == .endOfFile
      // The end of file's gap runs to the end of the bytes.
      let gapEnd = atEnd ? bytes.count : token.range.start
      tokens.append(LexedToken(token, followsComment: hasComment(in: bytes, from: previousEnd, to: gapEnd)))
      if atEnd { return tokens }
      previousEnd = token.range.end
    }
  }

  /// Whether a `#` stands between `start` and `limit` (a gap holds only whitespace and
  /// comments, so any `#` starts one).
  private static func hasComment(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int) -> Bool {
    bytes[start..<limit].contains(UInt8(ascii: "#"))
  }
}
