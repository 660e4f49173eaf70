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
/// outside parentheses, or an unindented line outside any parentheses), so one run reports
/// every independent mistake in a file. Nesting is limited (`nestingLimit`) so that no input
/// can exhaust the stack of this or any later pass.
///
/// The parser is split by job: items and prototypes here, expressions in
/// `Parser+Expressions.swift`, tokens, errors and recovery in `Parser+Tokens.swift`.
public final class Parser {
  /// How deeply expressions may nest: parentheses, prefix operators, `if`/`for`/`var`
  /// bodies, call arguments, chains of `=`. Generous for people and generators alike.
  public static let defaultNestingLimit = 10_000

  /// Receives the tree after each item, or each run of items ended by a syntax error, with
  /// the indices of the new items in `tree.items`.
  public typealias ItemHandler = (inout SyntaxTree, Range<Int>) -> Void

  /// Parses a whole file. `names` and `operators` carry what earlier REPL inputs declared.
  ///
  /// With `eachItem`, each item is handed over as soon as it is parsed (the checker runs
  /// then); unless `keepingItems`, its expressions are dropped afterwards, so memory grows
  /// with the largest item rather than with the file, and the resulting tree has the names
  /// but no items. With `recordingParentheses`, the tree also says which expressions were
  /// written in parentheses (`SyntaxTree.parentheses(around:)`), for the formatter.
  public static func parse(
    _ file: SourceFile, names: NameTable = NameTable(), operators: OperatorTable = .standard,
    nestingLimit: Int = defaultNestingLimit, keepingItems: Bool = true, recordingParentheses: Bool = false,
    eachItem: ItemHandler? = nil
  ) -> ParseResult {
    var tree = SyntaxTree(file: file, names: names)
    tree.recordsParentheses = recordingParentheses
    if keepingItems { tree.reserveCapacity(sourceBytes: file.bytes.count) }
    // The parser reads the bytes through a pointer that is valid only in this closure, so the
    // parser never outlives it.
    return file.bytes.withUnsafeBufferPointer { bytes in
      withoutActuallyEscaping(eachItem ?? { _, _ in }) { eachItem in
        let parser = Parser(
          file: file, bytes: bytes, tree: tree, operators: operators, nestingLimit: nestingLimit,
          keepingItems: keepingItems, itemHandler: eachItem)
        parser.parseItems()
        return ParseResult(
          tree: parser.tree, diagnostics: parser.diagnostics, operators: parser.operators,
          isIncomplete: parser.stoppedAtEndOfFile)
      }
    }
  }

  let file: SourceFile
  /// The file's bytes, valid for the parser's lifetime (see `parse`).
  let bytes: UnsafeBufferPointer<UInt8>
  private let keepingItems: Bool
  private let itemHandler: ItemHandler
  var lexer: Lexer
  var token: Token
  var previousTokenEnd = 0
  var tree: SyntaxTree
  var diagnostics = DiagnosticBag()
  var operators: OperatorTable
  let nestingLimit: Int
  var nesting = 0
  /// Open minus closed parentheses since the current item began.
  var parenBalance = 0
  /// Whether a syntax error happened because the input ended.
  var stoppedAtEndOfFile = false
  /// Scratch stacks for the arguments of the calls and the bindings of the `var`s being
  /// parsed (nested ones push on top), so that no array is allocated per call or `var`.
  var pendingArguments: [ExprID] = []
  var pendingBindings: [VarBinding] = []
  /// The file's operator definitions, once a mistaken operator made the parser look for them.
  var scannedDefinitions: OperatorDefinitions?

  private init(
    file: SourceFile, bytes: UnsafeBufferPointer<UInt8>, tree: SyntaxTree, operators: OperatorTable,
    nestingLimit: Int, keepingItems: Bool, itemHandler: @escaping ItemHandler
  ) {
    self.file = file
    self.bytes = bytes
    self.keepingItems = keepingItems
    self.itemHandler = itemHandler
    self.lexer = Lexer(bytes: bytes)
    self.tree = tree
    self.operators = operators
    self.nestingLimit = nestingLimit
    self.token = Token(kind: .endOfFile, range: .point(0))
    readToken()
  }

  /// Thrown to abandon the current item; the diagnostic has already been recorded.
  struct SyntaxError: Error {}

  // MARK: - Items

  private func parseItems() {
    guard file.bytes.count < Int(Int32.max) else {
      report(.fileTooLarge, at: .point(0))
      return
    }
    var handed = 0
    while token.kind != .endOfFile {
      parenBalance = 0
      nesting = 0
      do {
        try parseItem()
      } catch {
        synchronize()
      }
      guard tree.items.count > handed else { continue }
      itemHandler(&tree, handed..<tree.items.count)
      if keepingItems {
        handed = tree.items.count
      } else {
        tree.removeItems()
      }
    }
  }

  /// item ::= 'def' prototype expression | 'extern' prototype | global | expression | ';'
  private func parseItem() throws {
    switch token.kind {
    case .semicolon:
      advance()
    case .keyword(.def):
      try parseDefinition()
    case .keyword(.extern):
      advance()
      tree.items.append(.external(try parsePrototype()))
    case .keyword(.var):
      try parseVarItem()
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
  func parsePrototype() throws -> Prototype {
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
    case .keyword(let keyword) where keyword == .unary || keyword == .binary:
      advance()
      guard token.kind == .operatorChar else {
        if let former = formerOperatorCharacter() {
          report(.noLongerAnOperator(former), at: .point(token.range.start))
          throw SyntaxError()
        }
        throw fail(expected: "an operator character after '\(keyword.spelling)'")
      }
      let op = bytes[token.range.start]
      nameRange = token.range
      name = tree.names.intern((Array(keyword.spelling.utf8) + [op])[...])
      advance()
      kind = keyword == .unary ? .unaryOperator(op) : .binaryOperator(op, precedence: parsePrecedence())
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
    let value = NumberLiteral.value(of: bytes[token.range.start..<token.range.end])
    let range = OperatorTable.precedenceRange
    advance()
    guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
      report(.invalidPrecedence(text), at: SourceRange(start: previousTokenEnd - text.utf8.count, end: previousTokenEnd))
      return value.isNaN ? OperatorTable.defaultPrecedence : Int(min(max(value, 1), 100))
    }
    return Int(value)
  }

  /// params ::= ( param ( ','? param )* )?  inside parentheses
  /// param  ::= ident | ident '[' ']'
  private func parseParameters() throws -> [Parameter] {
    try expect(.leftParen, "'(' in the prototype")
    var parameters: [Parameter] = []
    while token.kind == .identifier {
      var parameter = Parameter(name: internCurrentName(), range: token.range)
      advance()
      if token.kind == .leftBracket {
        advance()
        try expect(.rightBracket, "']' after '[' in an array parameter")
        parameter.kind = .array
        parameter.range = SourceRange(start: parameter.range.start, end: previousTokenEnd)
      }
      parameters.append(parameter)
      if token.kind == .comma {
        advance()
        guard token.kind == .identifier else { throw fail(expected: "a parameter name after ','") }
      }
    }
    try expect(.rightParen, parameters.isEmpty ? "a parameter name or ')'" : "',', a parameter name or ')'")
    return parameters
  }

  /// item ::= 'var' binding ( ',' binding )* ( 'in' expression )?
  ///
  /// With `in`, a top-level `var ... in` expression; without it, a declaration of globals.
  /// Bindings that break off are taken for a declaration, which they more often are.
  private func parseVarItem() throws {
    let varRange = token.range
    advance()
    let mark = pendingBindings.count
    defer { pendingBindings.removeLast(pendingBindings.count - mark) }
    do {
      try parseBindings()
    } catch {
      // The names the declaration reached are declared all the same, so that their uses are
      // not reported as unknown as well.
      if pendingBindings.count > mark {
        tree.items.append(.globals(tree.addGlobalDeclaration(pendingBindings[mark...], at: varRange.start)))
      }
      throw error
    }
    if token.kind == .keyword(.in) {
      advance()
      let body = try parseExpression()
      tree.items.append(.expression(tree.addVarIn(pendingBindings[mark...], body: body, at: varRange.start)))
    } else {
      tree.items.append(.globals(tree.addGlobalDeclaration(pendingBindings[mark...], at: varRange.start)))
    }
  }

  /// Operator prototypes need the right number of parameters, may not redefine the built-in
  /// binary operators, and make a binary operator usable in the text that follows.
  private func checkOperatorPrototype(_ prototype: Prototype) {
    switch prototype.kind {
    case .function:
      return
    case .unaryOperator:
      if let array = prototype.parameters.first(where: { $0.kind == .array }) {
        report(.operatorTakesNumbers, at: array.range)
      }
      if prototype.arity != 1 {
        report(.operatorArity(kind: .unary, given: prototype.arity), at: prototype.range)
      }
    case .binaryOperator(let op, let precedence):
      if let array = prototype.parameters.first(where: { $0.kind == .array }) {
        report(.operatorTakesNumbers, at: array.range)
      }
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
}
