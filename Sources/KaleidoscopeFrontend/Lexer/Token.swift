/// What kind of token the lexer found.
public enum TokenKind: Sendable, Hashable {
  case endOfFile
  case identifier
  case number
  /// `"text"`, with escapes (`StringLiteral`).
  case string
  /// A single operator character: any printable ASCII character that is not a letter, digit,
  /// `_`, parenthesis, bracket, comma, semicolon, `"` or `#`.
  case operatorChar
  case leftParen
  case rightParen
  case leftBracket
  case rightBracket
  case comma
  case semicolon
  case keyword(Keyword)
  /// Text the lexer could not make into a token; `Token.error` says why.
  case invalid

  /// The category printed by `kaleidoscope tokens`.
  public var category: String {
    switch self {
    case .endOfFile: "end"
    case .identifier: "identifier"
    case .number: "number"
    case .string: "string"
    case .operatorChar: "operator"
    case .leftParen, .rightParen, .leftBracket, .rightBracket, .comma, .semicolon: "punctuation"
    case .keyword: "keyword"
    case .invalid: "error"
    }
  }

  /// Whether an item can begin with this token; error recovery resumes at such a token when
  /// it starts a line outside parentheses.
  var canStartItem: Bool {
    switch self {
    case .identifier, .number, .string, .operatorChar, .leftParen, .leftBracket, .semicolon: true
    case .keyword(let keyword): keyword.canStartItem
    case .endOfFile, .rightParen, .rightBracket, .comma, .invalid: false
    }
  }
}

/// Why a piece of text is not a token. Carried on the `.invalid` token, so the lexer never
/// stops and never reports: whoever consumes the token turns it into a diagnostic.
public enum LexError: Sendable, Equatable {
  /// More than one `.` in a number, as in `1.2.3`.
  case malformedNumber
  /// An exponent marker with no digits, as in `1e` or `2.5e+`.
  case missingExponentDigits
  /// A valid non-ASCII character outside a comment.
  case nonASCIICharacter(UInt32)
  /// A byte that does not start a valid UTF-8 sequence.
  case invalidUTF8(UInt8)
  /// A NUL byte, which ends the input: the file is not text.
  case nulCharacter
  /// A control character other than space, tab, CR and LF.
  case controlCharacter(UInt8)
  /// A string literal without its closing `"` on the same line.
  case unterminatedString
  /// A `\` in a string literal not followed by `n`, `t`, `\\`, `"`, `0` or `x` and two hex
  /// digits; the byte after the `\` (0 at the end of the input). Tokens are copied often,
  /// so a lexical error carries no `String`.
  case invalidEscape(UInt8)
}

/// One token: its kind, where it is, and whether a line break precedes it.
public struct Token: Sendable, Equatable {
  public var kind: TokenKind
  public var range: SourceRange
  /// True when the token is the first on its line; error recovery uses this as a hint that
  /// a new item starts here.
  public var isAtStartOfLine: Bool
  /// For `.invalid` tokens, what is wrong.
  public var error: LexError?

  public init(kind: TokenKind, range: SourceRange, isAtStartOfLine: Bool = false, error: LexError? = nil) {
    self.kind = kind
    self.range = range
    self.isAtStartOfLine = isAtStartOfLine
    self.error = error
  }
}

extension LexError {
  /// The diagnostic for this error, given the token's text.
  public func message(text: String) -> DiagnosticMessage {
    switch self {
    case .malformedNumber: .malformedNumber(text)
    case .missingExponentDigits: .missingExponentDigits(text)
    case .nonASCIICharacter(let scalar): .nonASCIICharacter(scalar)
    case .invalidUTF8(let byte): .invalidUTF8(byte)
    case .nulCharacter: .nulCharacter
    case .controlCharacter(let byte): .controlCharacter(byte)
    case .unterminatedString: .unterminatedString
    case .invalidEscape(let byte): .invalidEscape(byte == 0 ? "\\" : "\\" + String(UnicodeScalar(byte)))
    }
  }
}
