/// Operators written as in other languages: `a > b` before `>` is defined, `a == b`, `a != b`.
///
/// The grammar reads them without a syntax error: `a > b` is the item `a` followed by the
/// item `> b`, and `a == b` is `a = (= b)`, so each became "unknown unary operator" and, for
/// the first, `b` an unknown name outside the function. The parser knows better: an operator
/// character on the line of the operand before it, which is not a binary operator and no
/// prefix operator anywhere in the file, can only be a mistake, and so can a second operator
/// character written against a binary operator. Either is reported as what was meant, and the
/// item abandoned, so nothing else is reported about it.
extension Parser {
  /// The operators a file defines, found by a scan of its tokens the first time a mistake
  /// is suspected: prefix operators anywhere count (a call may come before the definition),
  /// and where each binary operator is first defined gives a note.
  struct OperatorDefinitions {
    var unary: Set<UInt8> = []
    var firstBinary: [UInt8: SourceRange] = [:]
  }

  /// After a binary operator at `opStart`: rejects a second operator character against it
  /// (`==`, `<=`, `+=`) unless that character may be a prefix operator (`a=-1`, `a<!b`).
  @inline(__always)
  func rejectTwoCharacterOperator(after opStart: Int) throws {
    guard token.kind == .operatorChar, token.range.start == opStart + 1, !mayBePrefixOperator(bytes[token.range.start])
    else { return }
    throw reportTwoCharacters(from: opStart)
  }

  /// After an operand: rejects an operator character on the same line that is not a binary
  /// operator (`a > b` before `>` is defined, `a != b`, `a && b`) unless it may be a prefix
  /// operator starting the next item, which the grammar allows (`a !b`, but not `a != b`:
  /// `=` cannot be a prefix operator). Inlined: it runs after every operand, and the token
  /// there is almost never an operator.
  @inline(__always)
  func rejectOperatorAfterOperand() throws {
    guard token.kind == .operatorChar, !token.isAtStartOfLine else { return }
    try rejectOperatorCharacterAfterOperand()
  }

  private func rejectOperatorCharacterAfterOperand() throws {
    let start = token.range.start
    let op = bytes[start]
    guard operators.precedence(of: op) == nil else { return }
    var lexer = Lexer(bytes: bytes, position: start + 1)
    let next = lexer.next()
    if next.kind == .operatorChar, next.range.start == start + 1, !mayBePrefixOperator(bytes[start + 1]) {
      throw reportTwoCharacters(from: start)
    }
    guard !mayBePrefixOperator(op) else { return }
    let spelling = String(UnicodeScalar(op))
    let note =
      definitions.firstBinary[op].map { Note(.operatorDefinedLater(kind: .binary, op: spelling), in: file, at: $0) }
      ?? Note(.defineBinaryOperator(spelling))
    report(.unknownBinaryOperator(spelling), at: token.range, notes: [note])
    throw SyntaxError()
  }

  private func reportTwoCharacters(from start: Int) -> SyntaxError {
    let spelling = String(decoding: bytes[start..<start + 2], as: UTF8.self)
    let notes = DiagnosticMessage.hasTwoCharacterHint(spelling) ? [Note(.twoCharacterHint(spelling))] : []
    report(.twoCharacterOperator(spelling), at: SourceRange(start: start, end: start + 2), notes: notes)
    return SyntaxError()
  }

  /// Whether `op` is built in as a prefix operator or defined as one in this file or, in
  /// the REPL, in an earlier input.
  private func mayBePrefixOperator(_ op: UInt8) -> Bool {
    OperatorTable.isBuiltinUnary(op) || definitions.unary.contains(op)
      || tree.names.lookup("unary" + String(UnicodeScalar(op))) != nil
  }

  /// The file's operator definitions, scanned once.
  private var definitions: OperatorDefinitions {
    if let scanned = scannedDefinitions { return scanned }
    var found = OperatorDefinitions()
    var lexer = Lexer(bytes: bytes)
    var previous = lexer.next()
    while previous.kind != .endOfFile {
      let current = lexer.next()
      if current.kind == .operatorChar {
        let op = bytes[current.range.start]
        if previous.kind == .keyword(.unary) { found.unary.insert(op) }
        if previous.kind == .keyword(.binary), found.firstBinary[op] == nil { found.firstBinary[op] = current.range }
      }
      previous = current
    }
    scannedDefinitions = found
    return found
  }
}
