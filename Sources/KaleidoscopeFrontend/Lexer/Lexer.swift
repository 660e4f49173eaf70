/// Turns UTF-8 bytes into tokens, one at a time, on demand.
///
/// The lexer works on bytes, not `Character`s: Kaleidoscope's tokens are all ASCII, and
/// byte offsets are what positions are made of. It never fails: text that is not a token
/// becomes an `.invalid` token carrying a `LexError`, and lexing goes on after it.
///
/// It reads the bytes through a pointer (no bounds checks, no reference counting), so a lexer
/// lives only while its file's bytes are pinned: inside `tokenize`, `tokenEnd`, or the parser.
public struct Lexer {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let keywords = KeywordTable.shared
  private var position = 0
  /// Whether a line break (or the start of the file) came before the next token.
  private var sawLineBreak = true

  /// A lexer over `bytes` that starts at `position`, between two tokens; the first token
  /// counts as starting a line. At the start of the file it skips a UTF-8 byte-order mark,
  /// which some editors write. `bytes` must stay valid while the lexer is used.
  public init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
    self.bytes = bytes
    self.position = position == 0 ? SourceFile.byteOrderMarkLength(bytes) : position
  }

  /// All tokens of the file, ending with `.endOfFile`.
  public static func tokenize(_ file: SourceFile) -> [Token] {
    file.bytes.withUnsafeBufferPointer { bytes in
      var lexer = Lexer(bytes: bytes)
      var tokens: [Token] = []
      // Programs run at about one token per four bytes; reserving that avoids copying the
      // array as it grows (pages reserved and not used cost nothing).
      tokens.reserveCapacity(bytes.count / 3 + 1)
      while true {
        let token = lexer.next()
        tokens.append(token)
        if token.kind == .endOfFile { return tokens }
      }
    }
  }

  /// The next token; `.endOfFile` forever once the input is exhausted.
  @inline(__always)
  public mutating func next() -> Token {
    skipWhitespaceAndComments()
    let start = position
    let atLineStart = sawLineBreak
    sawLineBreak = false
    guard position < bytes.count else {
      return Token(kind: .endOfFile, range: .point(position), isAtStartOfLine: atLineStart)
    }
    let byte = bytes[position]
    var error: LexError?
    let kind: TokenKind
    switch byte {
    case _ where Self.isIdentifierStart(byte):
      kind = scanIdentifierOrKeyword()
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      (kind, error) = scanNumber()
    case UInt8(ascii: ".") where isDigit(at: position + 1):
      (kind, error) = scanNumber()
    case UInt8(ascii: "("):
      position += 1
      kind = .leftParen
    case UInt8(ascii: ")"):
      position += 1
      kind = .rightParen
    case UInt8(ascii: "["):
      position += 1
      kind = .leftBracket
    case UInt8(ascii: "]"):
      position += 1
      kind = .rightBracket
    case UInt8(ascii: "\""):
      let end = StringLiteral.scan(bytes, from: position)
      position = end.position
      (kind, error) = end.error.map { (.invalid, $0) } ?? (.string, nil)
    case UInt8(ascii: ","):
      position += 1
      kind = .comma
    case UInt8(ascii: ";"):
      position += 1
      kind = .semicolon
    case 0x21...0x7E:
      position += 1
      kind = .operatorChar
    case 0:
      // A NUL byte means the file is not text (an executable, an image): the rest is not
      // lexed, where a binary file would bring an error for nearly every byte.
      position = bytes.count
      return Token(
        kind: .invalid, range: SourceRange(start: start, end: start + 1), isAtStartOfLine: atLineStart,
        error: .nulCharacter)
    case 0x01..<0x20, 0x7F:
      position += 1
      (kind, error) = (.invalid, .controlCharacter(byte))
    default:
      (kind, error) = (.invalid, scanNonASCII())
    }
    return Token(
      kind: kind, range: SourceRange(start: start, end: position), isAtStartOfLine: atLineStart,
      error: error)
  }

  // MARK: - Scanners

  @inline(__always)
  private mutating func skipWhitespaceAndComments() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        position += 1
      case UInt8(ascii: "\n"):
        position += 1
        sawLineBreak = true
      case UInt8(ascii: "#"):
        while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
      default:
        return
      }
    }
  }

  @inline(__always)
  private mutating func scanIdentifierOrKeyword() -> TokenKind {
    let start = position
    position += 1
    while position < bytes.count && Self.isIdentifierContinuation(bytes[position]) { position += 1 }
    return keywords.keyword(bytes[start..<position]).map(TokenKind.keyword) ?? .identifier
  }

  /// `digits [. digits] [exponent]`, `. digits [exponent]`; a run of digits and dots with more
  /// than one dot is malformed, as is an exponent without digits.
  private mutating func scanNumber() -> (TokenKind, LexError?) {
    var dots = 0
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: ".") {
        dots += 1
      } else if !Self.isDigit(byte) {
        break
      }
      position += 1
    }
    var error: LexError? = dots > 1 ? .malformedNumber : nil
    if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
        position += 1
      }
      if isDigit(at: position) {
        while isDigit(at: position) { position += 1 }
      } else if error == nil {
        error = .missingExponentDigits
      }
    }
    return (error == nil ? .number : .invalid, error)
  }

  /// A byte of 0x80 or above: a whole valid UTF-8 sequence becomes one error token naming the
  /// character; an invalid byte becomes an error token of its own.
  private mutating func scanNonASCII() -> LexError {
    let lead = bytes[position]
    let length: Int
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
    default:
      position += 1
      return .invalidUTF8(lead)
    }
    guard position + length <= bytes.count else {
      position += 1
      return .invalidUTF8(lead)
    }
    for offset in 1..<length {
      let byte = bytes[position + offset]
      guard byte & 0xC0 == 0x80 else {
        position += 1
        return .invalidUTF8(lead)
      }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      position += 1
      return .invalidUTF8(lead)
    }
    position += length
    return .nonASCIICharacter(scalar)
  }

  // MARK: - Character classes

  private func isDigit(at offset: Int) -> Bool {
    offset < bytes.count && Self.isDigit(bytes[offset])
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
  }

  static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || isDigit(byte)
  }

  /// The end of the token that starts at `offset`. Nodes of the syntax tree store only where
  /// their token starts; this finds the rest when a diagnostic needs it.
  public static func tokenEnd(in file: SourceFile, at offset: Int) -> Int {
    file.bytes.withUnsafeBufferPointer { bytes in
      var lexer = Lexer(bytes: bytes)
      lexer.position = min(max(0, offset), bytes.count)
      return lexer.next().range.end
    }
  }
}
