/// Reading tokens, reporting errors and recovering from them.
extension Parser {
  /// Reads the next token from the lexer, reporting it if it is a lexical error. Every token
  /// passes through here exactly once, so every lexical error is reported exactly once.
  func readToken() {
    token = lexer.next()
    if let error = token.error {
      report(error.message(text: file.text(in: token.range)), at: token.range)
    }
  }

  func advance() {
    switch token.kind {
    case .leftParen: parenBalance += 1
    case .rightParen: parenBalance -= 1
    default: break
    }
    previousTokenEnd = token.range.end
    readToken()
  }

  func expect(_ kind: TokenKind, _ what: String, notes: @autoclosure () -> [Note] = []) throws {
    guard token.kind == kind else { throw fail(expected: what, notes: notes()) }
    advance()
  }

  func expectOperator(_ op: Unicode.Scalar, _ what: String) throws {
    guard isOperator(op) else { throw fail(expected: what) }
    advance()
  }

  func isOperator(_ op: Unicode.Scalar) -> Bool {
    token.kind == .operatorChar && bytes[token.range.start] == UInt8(ascii: op)
  }

  func internCurrentName() -> Name {
    tree.names.intern(UnsafeBufferPointer(rebasing: bytes[token.range.start..<token.range.end]))
  }

  func enterNesting() throws {
    guard nesting < nestingLimit else {
      report(.nestingTooDeep(limit: nestingLimit), at: token.range)
      throw SyntaxError()
    }
    nesting += 1
  }

  // MARK: - Errors and recovery

  func report(_ message: DiagnosticMessage, at range: SourceRange, notes: [Note] = []) {
    diagnostics.append(Diagnostic(.error, message, in: file, at: range, notes: notes))
  }

  /// Reports "expected X, found Y" and returns the error that abandons the item. A lexical
  /// error in the way was already reported, so it is not reported again.
  func fail(expected what: String, notes: [Note] = []) -> SyntaxError {
    if token.kind == .endOfFile { stoppedAtEndOfFile = true }
    if token.kind != .invalid {
      // `len` was a free name before arrays; say why it no longer is.
      let notes = token.kind == .keyword(.len) ? notes + [Note(.lenIsBuiltIn)] : notes
      report(.expected(what, found: describe(token)), at: expectationRange, notes: notes)
    }
    return SyntaxError()
  }

  /// `[`, `]` or `"` where an operator character is expected: they were operator characters
  /// before arrays and strings, and programs written then may use them.
  func formerOperatorCharacter() -> String? {
    switch token.kind {
    case .leftBracket: "["
    case .rightBracket: "]"
    case .string,
      .invalid where bytes[token.range.start] == UInt8(ascii: "\""):
      "\""
    default: nil
    }
  }

  /// Where to point for something missing: at the token found, or, when that token is on a
  /// later line or is the end of the file, just after the previous token, as clang does.
  var expectationRange: SourceRange {
    token.isAtStartOfLine || token.kind == .endOfFile ? .point(previousTokenEnd) : token.range
  }

  /// Skips to where the next item plausibly starts: `def` or `extern`, just after a `;` that
  /// is outside parentheses, or a token that begins an unindented line outside parentheses
  /// (an indented line more likely goes on with the broken item, whose names it would then
  /// report as unknown). Always moves past at least one token unless it stands on `def` or
  /// `extern`.
  func synchronize() {
    var first = true
    while token.kind != .endOfFile {
      switch token.kind {
      case .keyword(.def), .keyword(.extern):
        return
      case .semicolon where parenBalance <= 0:
        advance()
        return
      default:
        if !first && parenBalance <= 0 && startsUnindentedLine && token.kind.canStartItem { return }
      }
      first = false
      advance()
    }
  }

  /// Whether the current token is the first of its line and stands in its first column.
  private var startsUnindentedLine: Bool {
    let start = token.range.start
    return token.isAtStartOfLine && (start == 0 || bytes[start - 1] == UInt8(ascii: "\n"))
  }

  /// How a token is named in "expected X, found Y".
  func describe(_ token: Token) -> String {
    let text = file.text(in: token.range)
    switch token.kind {
    case .endOfFile: return "end of file"
    case .identifier: return "identifier '\(text)'"
    case .number: return "number '\(text)'"
    case .string: return "string \(text)"
    case .keyword, .operatorChar, .leftParen, .rightParen, .leftBracket, .rightBracket, .comma, .semicolon, .invalid:
      return "'\(text)'"
    }
  }
}
