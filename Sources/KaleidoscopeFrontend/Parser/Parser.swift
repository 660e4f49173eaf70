#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What parsing a file produced: the tree (possibly partial), every syntax error found, and
/// the operator table as it stands at the end of the file.
public struct ParseResult: Sendable {
  public var tree: SyntaxTree
  public var diagnostics: DiagnosticBag
  public var operators: OperatorTable
  /// True when the input stopped in the middle of an item (`def f(x)`, `(1 +`): the REPL
  /// then asks for another line instead of reporting an error.
  public var isIncomplete: Bool
}

/// A recursive-descent parser with precedence climbing for binary operators.
///
/// Errors are recorded, never thrown out of `parse`: after a syntax error the parser abandons
/// the current item and resynchronises at the start of the next one (`def`, `extern`, a `;`
/// outside parentheses, or a line that starts outside any parentheses), so one run reports
/// every independent mistake in a file. Nesting is limited (`nestingLimit`) so that no input
/// can exhaust the stack of this or any later pass.
public final class Parser {
  /// How deeply expressions may nest: parentheses, prefix operators, `if`/`for`/`var`
  /// bodies, call arguments, chains of `=`. Generous for people and generators alike.
  public static let defaultNestingLimit = 10_000

  /// Parses a whole file. `names` and `operators` carry state between REPL inputs.
  public static func parse(
    _ file: SourceFile, names: NameTable = NameTable(), operators: OperatorTable = .standard,
    nestingLimit: Int = defaultNestingLimit
  ) -> ParseResult {
    // The whole tree is kept: reserve room for it once.
    var tree = SyntaxTree(file: file, names: names)
    tree.reserveCapacity(sourceBytes: file.bytes.count)
    return run(file, tree: tree, operators: operators, nestingLimit: nestingLimit, itemHandler: nil)
  }

  /// Parses a file item by item: after each item (or each run of items ended by a syntax
  /// error), `eachItem` gets the tree holding them, and their expressions are then dropped.
  /// The tree in the result has the names but no items.
  ///
  /// With `range`, only the items in that part of the file are parsed, as if the file were
  /// those bytes alone but with positions counted from the file's start; `range` must start
  /// at the start of a line. `operators` are the operators defined before it.
  static func parseItemByItem(
    _ file: SourceFile, range: Range<Int>? = nil, operators: OperatorTable = .standard,
    _ eachItem: (inout SyntaxTree) -> Void
  ) -> ParseResult {
    withoutActuallyEscaping(eachItem) { eachItem in
      run(
        file, range: range, tree: SyntaxTree(file: file), operators: operators,
        nestingLimit: defaultNestingLimit, itemHandler: eachItem)
    }
  }

  /// The binary operators defined before `end`, found without parsing everything before it:
  /// each `binary` keyword outside a comment is taken as the start of an operator prototype
  /// and parsed as one. This is a guess (a `binary` where no prototype may stand is parsed as
  /// one too), used to parse a later part of a file before the earlier part is parsed; the
  /// guess must be checked against the operators the earlier part really defined.
  static func guessOperators(in file: SourceFile, before end: Int) -> OperatorTable {
    file.bytes.withUnsafeBufferPointer { whole in
      let bytes = UnsafeBufferPointer(rebasing: whole[..<end])
      var operators = OperatorTable.standard
      for offset in binaryKeywordOffsets(in: bytes) where !isInComment(offset, bytes) {
        let parser = Parser(
          file: file, bytes: bytes, start: offset, tree: SyntaxTree(file: file), operators: operators,
          nestingLimit: defaultNestingLimit, itemHandler: nil)
        _ = try? parser.parsePrototype()
        operators = parser.operators
      }
      return operators
    }
  }

  /// The first offset at or after `offset` where a line starts with `def` or `extern`. An item
  /// always starts there, whatever comes before: the parser resynchronises at these keywords.
  static func itemStart(in file: SourceFile, atOrAfter offset: Int) -> Int? {
    file.bytes.withUnsafeBufferPointer { bytes in
      guard offset < bytes.count else { return nil }
      var line = offset == 0 || bytes[offset - 1] == UInt8(ascii: "\n") ? offset : lineAfter(offset, bytes)
      while let start = line, start < bytes.count {
        if [.keywordDef, .keywordExtern].contains(keyword(at: start, bytes)) { return start }
        line = lineAfter(start, bytes)
      }
      return nil
    }
  }

  /// The start of the line after the one `offset` is on, if there is one.
  private static func lineAfter(_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let base = bytes.baseAddress!
    guard let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset) else { return nil }
    return base.distance(to: UnsafePointer(newline.assumingMemoryBound(to: UInt8.self))) + 1
  }

  /// The keyword spelled by the word that starts at `offset`, if it is one (`Lexer.keyword`).
  private static func keyword(at offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> TokenKind? {
    guard Lexer.isIdentifierStart(bytes[offset]) else { return nil }
    var end = offset + 1
    while end < bytes.count && Lexer.isIdentifierContinuation(bytes[end]) { end += 1 }
    return Lexer.keyword(bytes[offset..<end])
  }

  /// The offsets at which the keyword `binary` stands as a whole word in `bytes`.
  private static func binaryKeywordOffsets(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    guard let base = bytes.baseAddress else { return [] }
    var offsets: [Int] = []
    var offset = 0
    while offset < bytes.count, let found = memchr(base + offset, Int32(UInt8(ascii: "b")), bytes.count - offset) {
      let start = base.distance(to: UnsafePointer(found.assumingMemoryBound(to: UInt8.self)))
      let wordBefore = start > 0 && Lexer.isIdentifierContinuation(bytes[start - 1])
      if !wordBefore && keyword(at: start, bytes) == .keywordBinary { offsets.append(start) }
      offset = start + 1
    }
    return offsets
  }

  /// Whether a `#` comment covers `offset`.
  private static func isInComment(_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var position = offset
    while position > 0 && bytes[position - 1] != UInt8(ascii: "\n") {
      position -= 1
      if bytes[position] == UInt8(ascii: "#") { return true }
    }
    return false
  }

  private static func run(
    _ file: SourceFile, range: Range<Int>? = nil, tree: SyntaxTree, operators: OperatorTable,
    nestingLimit: Int, itemHandler: ((inout SyntaxTree) -> Void)?
  ) -> ParseResult {
    // The parser reads the bytes through a pointer that is valid only in this closure, so the
    // parser never outlives it.
    file.bytes.withUnsafeBufferPointer { whole in
      let range = range ?? 0..<whole.count
      let parser = Parser(
        file: file, bytes: UnsafeBufferPointer(rebasing: whole[..<range.upperBound]), start: range.lowerBound,
        tree: tree, operators: operators, nestingLimit: nestingLimit, itemHandler: itemHandler)
      parser.parseItems()
      return ParseResult(
        tree: parser.tree, diagnostics: parser.diagnostics, operators: parser.operators,
        isIncomplete: parser.stoppedAtEndOfFile)
    }
  }

  private let file: SourceFile
  /// Receives the items as they are parsed, when parsing item by item.
  private let itemHandler: ((inout SyntaxTree) -> Void)?
  /// The file's bytes, valid for the parser's lifetime (see `parse`).
  private let bytes: UnsafeBufferPointer<UInt8>
  private var lexer: Lexer
  private var token: Token
  private var previousTokenEnd = 0
  private var tree: SyntaxTree
  private var diagnostics = DiagnosticBag()
  private var operators: OperatorTable
  private let nestingLimit: Int
  private var nesting = 0
  /// Open minus closed parentheses since the current item began.
  private var parenBalance = 0
  /// Whether a syntax error happened because the input ended.
  private var stoppedAtEndOfFile = false
  /// Scratch stacks for the arguments of the calls and the bindings of the `var`s being
  /// parsed (nested ones push on top), so that no array is allocated per call or `var`.
  private var pendingArguments: [ExprID] = []
  private var pendingBindings: [VarBinding] = []

  /// A parser of `bytes` from `start`, which must be the start of a line.
  private init(
    file: SourceFile, bytes: UnsafeBufferPointer<UInt8>, start: Int = 0, tree: SyntaxTree,
    operators: OperatorTable, nestingLimit: Int, itemHandler: ((inout SyntaxTree) -> Void)?
  ) {
    self.file = file
    self.bytes = bytes
    self.itemHandler = itemHandler
    self.lexer = Lexer(bytes: bytes, position: start)
    self.previousTokenEnd = start
    self.tree = tree
    self.operators = operators
    self.nestingLimit = nestingLimit
    self.token = Token(kind: .endOfFile, range: .point(0))
    readToken()
  }

  /// Thrown to abandon the current item; the diagnostic has already been recorded.
  private struct SyntaxError: Error {}

  // MARK: - Items

  private func parseItems() {
    guard file.bytes.count < Int(Int32.max) else {
      report(.fileTooLarge, at: .point(0))
      return
    }
    while token.kind != .endOfFile {
      parenBalance = 0
      nesting = 0
      do {
        try parseItem()
      } catch {
        synchronize()
      }
      if let itemHandler, !tree.items.isEmpty {
        itemHandler(&tree)
        tree.removeItems()
      }
    }
  }

  /// item ::= 'def' prototype expression | 'extern' prototype | expression | ';'
  private func parseItem() throws {
    switch token.kind {
    case .semicolon:
      advance()
    case .keywordDef:
      try parseDefinition()
    case .keywordExtern:
      advance()
      tree.items.append(.external(try parsePrototype()))
    default:
      tree.items.append(.expression(try parseExpression()))
    }
  }

  private func parseDefinition() throws {
    let start = token.range.start
    advance()
    let prototype = try parsePrototype()
    do {
      let body = try parseExpression()
      let range = SourceRange(start: start, end: previousTokenEnd)
      tree.items.append(.definition(FunctionDefinition(prototype: prototype, body: body, range: range)))
    } catch {
      tree.items.append(.brokenDefinition(prototype))
      throw error
    }
  }

  /// prototype ::= ident '(' params ')' | 'unary' OP '(' ident ')'
  ///             | 'binary' OP number? '(' ident ','? ident ')'
  private func parsePrototype() throws -> Prototype {
    let start = token.range.start
    let kind: Prototype.Kind
    let nameRange: SourceRange
    let name: Name
    switch token.kind {
    case .identifier:
      kind = .function
      nameRange = token.range
      name = internCurrentName()
      advance()
    case .keywordUnary, .keywordBinary:
      let isUnary = token.kind == .keywordUnary
      let keyword = isUnary ? "unary" : "binary"
      advance()
      guard token.kind == .operatorChar else {
        throw fail(expected: "an operator character after '\(keyword)'")
      }
      let op = bytes[token.range.start]
      nameRange = token.range
      name = tree.names.intern((Array(keyword.utf8) + [op])[...])
      advance()
      kind = isUnary ? .unaryOperator(op) : .binaryOperator(op, precedence: parsePrecedence())
    default:
      throw fail(expected: "a function name in the prototype")
    }
    let parameters = try parseParameters()
    let prototype = Prototype(
      kind: kind, name: name, nameRange: nameRange, parameters: parameters,
      range: SourceRange(start: start, end: previousTokenEnd))
    checkOperatorPrototype(prototype)
    return prototype
  }

  /// The optional precedence after `binary OP`; reports and clamps a bad one.
  private func parsePrecedence() -> Int {
    guard token.kind == .number else { return OperatorTable.defaultPrecedence }
    let text = file.text(in: token.range)
    let value = numberValue(token.range)
    let range = OperatorTable.precedenceRange
    advance()
    guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
      report(.invalidPrecedence(text), at: SourceRange(start: previousTokenEnd - text.utf8.count, end: previousTokenEnd))
      return value.isNaN ? OperatorTable.defaultPrecedence : Int(min(max(value, 1), 100))
    }
    return Int(value)
  }

  /// params ::= ( ident ( ','? ident )* )?  inside parentheses.
  private func parseParameters() throws -> [Parameter] {
    try expect(.leftParen, "'(' in the prototype")
    var parameters: [Parameter] = []
    while token.kind == .identifier {
      parameters.append(Parameter(name: internCurrentName(), range: token.range))
      advance()
      if token.kind == .comma {
        advance()
        guard token.kind == .identifier else { throw fail(expected: "a parameter name after ','") }
      }
    }
    try expect(.rightParen, parameters.isEmpty ? "a parameter name or ')'" : "',', a parameter name or ')'")
    return parameters
  }

  /// Operator prototypes need the right number of parameters, may not redefine the built-in
  /// binary operators, and make a binary operator usable in the text that follows.
  private func checkOperatorPrototype(_ prototype: Prototype) {
    switch prototype.kind {
    case .function:
      return
    case .unaryOperator:
      if prototype.arity != 1 {
        report(.operatorArity(kind: .unary, given: prototype.arity), at: prototype.range)
      }
    case .binaryOperator(let op, let precedence):
      if OperatorTable.isBuiltinBinary(op) {
        // The tutorial's chapter 6 defines `binary =` as equality; here `=` assigns.
        let notes = op == UInt8(ascii: "=") ? [Note(.assignmentIsBuiltIn)] : []
        report(.builtinOperatorRedefinition(kind: .binary, op: String(UnicodeScalar(op))), at: prototype.nameRange, notes: notes)
        return
      }
      if prototype.arity != 2 {
        report(.operatorArity(kind: .binary, given: prototype.arity), at: prototype.range)
      }
      operators.define(op, precedence: precedence)
    }
  }

  // MARK: - Expressions

  /// expression ::= unary ( BINOP unary )*
  private func parseExpression() throws -> ExprID {
    try parseBinaryOperations(minimumPrecedence: 1, lhs: try parseUnary())
  }

  /// An expression nested inside another: counts toward the nesting limit.
  private func parseNestedExpression() throws -> ExprID {
    try enterNesting()
    defer { nesting -= 1 }
    return try parseExpression()
  }

  /// Precedence climbing: folds operators of at least `minimumPrecedence` onto `lhs`. An
  /// operator that binds tighter than the one before it takes the right operand first, by
  /// recursion; recursion depth is bounded by the number of distinct precedences, except
  /// for right-associative chains (`a = b = c`), which count as nesting.
  private func parseBinaryOperations(minimumPrecedence: Int, lhs: ExprID) throws -> ExprID {
    var lhs = lhs
    while let precedence = currentBinaryPrecedence(), precedence >= minimumPrecedence {
      let opStart = token.range.start
      let op = bytes[opStart]
      advance()
      var rhs = try parseUnary()
      if let next = currentBinaryPrecedence(),
        next > precedence || (next == precedence && operators.isRightAssociative(op))
      {
        try enterNesting()
        defer { nesting -= 1 }
        rhs = try parseBinaryOperations(minimumPrecedence: next > precedence ? precedence + 1 : precedence, lhs: rhs)
      }
      if op == UInt8(ascii: "=") {
        lhs = tree.addAssign(target: lhs, value: rhs, at: opStart)
      } else {
        lhs = tree.addBinary(op, lhs: lhs, rhs: rhs, at: opStart)
      }
    }
    return lhs
  }

  private func currentBinaryPrecedence() -> Int? {
    guard token.kind == .operatorChar else { return nil }
    return operators.precedence(of: bytes[token.range.start])
  }

  /// unary ::= OP unary | primary
  private func parseUnary() throws -> ExprID {
    guard token.kind == .operatorChar else { return try parsePrimary() }
    let opStart = token.range.start
    advance()
    try enterNesting()
    defer { nesting -= 1 }
    let operand = try parseUnary()
    return tree.addUnary(bytes[opStart], operand: operand, at: opStart)
  }

  private func parsePrimary() throws -> ExprID {
    switch token.kind {
    case .number:
      let range = token.range
      let value = numberValue(range)
      if value.isInfinite { report(.numberTooLarge(file.text(in: range)), at: range) }
      advance()
      return tree.addNumber(value, at: range.start)
    case .identifier:
      return try parseIdentifierOrCall()
    case .leftParen:
      let open = token.range
      advance()
      let inner = try parseNestedExpression()
      try expect(.rightParen, "')'", notes: [Note(.openedHere("'('"), in: file, at: open)])
      return inner
    case .keywordIf:
      return try parseIf()
    case .keywordFor:
      return try parseFor()
    case .keywordVar:
      return try parseVar()
    case .invalid:
      // The lexer's error was reported when the token was read; stand in for the operand.
      let start = token.range.start
      advance()
      return tree.addError(at: start)
    default:
      if token.kind == .endOfFile { stoppedAtEndOfFile = true }
      report(.expectedExpression(found: describe(token)), at: expectationRange)
      throw SyntaxError()
    }
  }

  /// ident | ident '(' ( expression ( ',' expression )* )? ')'
  private func parseIdentifierOrCall() throws -> ExprID {
    let nameRange = token.range
    let name = internCurrentName()
    advance()
    guard token.kind == .leftParen else { return tree.addVariable(name, at: nameRange.start) }
    let open = token.range
    advance()
    let mark = pendingArguments.count
    defer { pendingArguments.removeLast(pendingArguments.count - mark) }
    if token.kind != .rightParen {
      while true {
        pendingArguments.append(try parseNestedExpression())
        if token.kind == .rightParen { break }
        guard token.kind == .comma else {
          throw fail(expected: "',' or ')' in the argument list", notes: [Note(.openedHere("'('"), in: file, at: open)])
        }
        advance()
      }
    }
    advance()
    return tree.addCall(name, arguments: pendingArguments[mark...], at: nameRange.start)
  }

  /// 'if' expression 'then' expression 'else' expression
  private func parseIf() throws -> ExprID {
    let ifRange = token.range
    advance()
    let condition = try parseNestedExpression()
    try expect(.keywordThen, "'then'", notes: [Note(.openedHere("'if'"), in: file, at: ifRange)])
    let thenBranch = try parseNestedExpression()
    try expect(.keywordElse, "'else'", notes: [Note(.openedHere("'if'"), in: file, at: ifRange)])
    let elseBranch = try parseNestedExpression()
    return tree.addIf(condition: condition, then: thenBranch, else: elseBranch, at: ifRange.start)
  }

  /// 'for' ident '=' expression ',' expression ( ',' expression )? 'in' expression
  private func parseFor() throws -> ExprID {
    let forRange = token.range
    advance()
    guard token.kind == .identifier else { throw fail(expected: "a loop variable name after 'for'") }
    let variableRange = token.range
    let variable = internCurrentName()
    advance()
    try expectOperator("=", "'=' after the loop variable")
    let start = try parseNestedExpression()
    try expect(.comma, "',' after the loop's start value", notes: [Note(.openedHere("'for'"), in: file, at: forRange)])
    let end = try parseNestedExpression()
    var step: ExprID?
    if token.kind == .comma {
      advance()
      step = try parseNestedExpression()
    }
    try expect(.keywordIn, "'in'", notes: [Note(.openedHere("'for'"), in: file, at: forRange)])
    let body = try parseNestedExpression()
    let loop = ForLoop(
      variable: variable, variableRange: variableRange, start: start, end: end, step: step, body: body)
    return tree.addForLoop(loop, at: forRange.start)
  }

  /// 'var' ident ( '=' expression )? ( ',' ident ( '=' expression )? )* 'in' expression
  private func parseVar() throws -> ExprID {
    let varRange = token.range
    advance()
    let mark = pendingBindings.count
    defer { pendingBindings.removeLast(pendingBindings.count - mark) }
    while true {
      guard token.kind == .identifier else {
        throw fail(expected: pendingBindings.count == mark ? "a variable name after 'var'" : "a variable name after ','")
      }
      let nameRange = token.range
      let name = internCurrentName()
      advance()
      var initializer: ExprID?
      if isOperator("=") {
        advance()
        initializer = try parseNestedExpression()
      }
      pendingBindings.append(VarBinding(name: name, nameRange: nameRange, initializer: initializer))
      guard token.kind == .comma else { break }
      advance()
    }
    try expect(.keywordIn, "'in' after the variables", notes: [Note(.openedHere("'var'"), in: file, at: varRange)])
    let body = try parseNestedExpression()
    return tree.addVarIn(pendingBindings[mark...], body: body, at: varRange.start)
  }

  // MARK: - Tokens

  /// Reads the next token from the lexer, reporting it if it is a lexical error. Every token
  /// passes through here exactly once, so every lexical error is reported exactly once.
  private func readToken() {
    token = lexer.next()
    if let error = token.error {
      report(error.message(text: file.text(in: token.range)), at: token.range)
    }
  }

  private func advance() {
    switch token.kind {
    case .leftParen: parenBalance += 1
    case .rightParen: parenBalance -= 1
    default: break
    }
    previousTokenEnd = token.range.end
    readToken()
  }

  private func expect(_ kind: TokenKind, _ what: String, notes: @autoclosure () -> [Note] = []) throws {
    guard token.kind == kind else { throw fail(expected: what, notes: notes()) }
    advance()
  }

  private func expectOperator(_ op: Unicode.Scalar, _ what: String) throws {
    guard isOperator(op) else { throw fail(expected: what) }
    advance()
  }

  private func isOperator(_ op: Unicode.Scalar) -> Bool {
    token.kind == .operatorChar && bytes[token.range.start] == UInt8(ascii: op)
  }

  private func internCurrentName() -> Name {
    tree.names.intern(UnsafeBufferPointer(rebasing: bytes[token.range.start..<token.range.end]))
  }

  /// The value of a number token. `digits[.digits]` with at most 15 significant digits is
  /// computed exactly: the digits as an integer (exact below 2^53) divided by a power of ten
  /// (exact up to 10^22), one correctly rounded operation, which is what `strtod` returns.
  /// Everything else (exponents, longer numbers) goes to `strtod`.
  private func numberValue(_ range: SourceRange) -> Double {
    let digits = bytes[range.start..<range.end]
    var mantissa = 0
    var significant = 0
    var fractionDigits = 0
    var seenDot = false
    for byte in digits {
      if byte == UInt8(ascii: "."), !seenDot {
        seenDot = true
        continue
      }
      guard Lexer.isDigit(byte), significant < 15 else { return Self.valueByStrtod(digits) }
      mantissa = mantissa * 10 + Int(byte &- UInt8(ascii: "0"))
      if mantissa > 0 { significant += 1 }
      if seenDot { fractionDigits += 1 }
    }
    guard fractionDigits <= 22 else { return Self.valueByStrtod(digits) }
    return fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / Self.powersOfTen[fractionDigits]
  }

  /// 10^0 ... 10^22, every one exactly representable as a `Double`.
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
  }

  private static func valueByStrtod(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Double {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: digits.count + 1) { buffer in
      for (offset, byte) in digits.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
      buffer[digits.count] = 0
      return strtod(buffer.baseAddress!, nil)
    }
  }

  // MARK: - Errors and recovery

  private func report(_ message: DiagnosticMessage, at range: SourceRange, notes: [Note] = []) {
    diagnostics.append(Diagnostic(.error, message, in: file, at: range, notes: notes))
  }

  /// Reports "expected X, found Y" and returns the error that abandons the item. A lexical
  /// error in the way was already reported, so it is not reported again.
  private func fail(expected what: String, notes: [Note] = []) -> SyntaxError {
    if token.kind == .endOfFile { stoppedAtEndOfFile = true }
    if token.kind != .invalid {
      report(.expected(what, found: describe(token)), at: expectationRange, notes: notes)
    }
    return SyntaxError()
  }

  /// Where to point for something missing: at the token found, or, when that token is on a
  /// later line or is the end of the file, just after the previous token, as clang does.
  private var expectationRange: SourceRange {
    token.isAtStartOfLine || token.kind == .endOfFile ? .point(previousTokenEnd) : token.range
  }

  private func enterNesting() throws {
    guard nesting < nestingLimit else {
      report(.nestingTooDeep(limit: nestingLimit), at: token.range)
      throw SyntaxError()
    }
    nesting += 1
  }

  /// Skips to where the next item plausibly starts: `def` or `extern`, just after a `;` that
  /// is outside parentheses, or a token that begins a line outside parentheses. Always moves
  /// past at least one token unless it stands on `def` or `extern`.
  private func synchronize() {
    var first = true
    while token.kind != .endOfFile {
      switch token.kind {
      case .keywordDef, .keywordExtern:
        return
      case .semicolon where parenBalance <= 0:
        advance()
        return
      default:
        if !first && parenBalance <= 0 && token.isAtStartOfLine && token.kind.canStartItem { return }
      }
      first = false
      advance()
    }
  }

  private func describe(_ token: Token) -> String {
    let text = file.text(in: token.range)
    switch token.kind {
    case .endOfFile: return "end of file"
    case .identifier: return "identifier '\(text)'"
    case .number: return "number '\(text)'"
    default: return "'\(text)'"
    }
  }
}

extension TokenKind {
  /// Whether an item can begin with this token (used only to resynchronise after errors).
  fileprivate var canStartItem: Bool {
    switch self {
    case .identifier, .number, .operatorChar, .leftParen, .keywordIf, .keywordFor, .keywordVar,
      .keywordDef, .keywordExtern, .semicolon:
      true
    default:
      false
    }
  }
}
