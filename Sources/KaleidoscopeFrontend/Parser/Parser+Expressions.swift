/// Expressions: precedence climbing for binary operators, recursive descent for the rest.
extension Parser {
  /// expression ::= unary ( BINOP unary )*
  func parseExpression() throws -> ExprID {
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
      try rejectTwoCharacterOperator(after: opStart)
      var rhs = try parseUnary()
      if let next = currentBinaryPrecedence(),
        next > precedence || (next == precedence && operators.isRightAssociative(op))
      {
        try enterNesting()
        defer { nesting -= 1 }
        rhs = try parseBinaryOperations(minimumPrecedence: next > precedence ? precedence + 1 : precedence, lhs: rhs)
      }
      if op == UInt8(ascii: "="), case .element(let array, let index) = tree[lhs] {
        lhs = tree.addStoreElement(array, index: index, value: rhs, at: tree.start(of: lhs))
      } else if op == UInt8(ascii: "=") {
        lhs = tree.addAssign(target: lhs, value: rhs, at: opStart)
      } else {
        lhs = tree.addBinary(op, lhs: lhs, rhs: rhs, at: opStart)
      }
    }
    try rejectOperatorAfterOperand()
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
      let value = NumberLiteral.value(of: bytes[range.start..<range.end])
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
      tree.noteParentheses(around: inner)
      return inner
    case .keyword(.if):
      return try parseIf()
    case .keyword(.for):
      return try parseFor()
    case .keyword(.while):
      return try parseWhile()
    case .keyword(.var):
      return try parseVar()
    case .keyword(.len):
      return try parseLength()
    case .leftBracket:
      return try parseArrayLiteral()
    case .string:
      return parseString()
    case .invalid:
      // The lexer's error was reported when the token was read; stand in for the operand.
      let start = token.range.start
      advance()
      return tree.addError(at: start)
    case .endOfFile, .operatorChar, .rightParen, .rightBracket, .comma, .semicolon,
      .keyword(.def), .keyword(.extern), .keyword(.then), .keyword(.else), .keyword(.in),
      .keyword(.binary), .keyword(.unary):
      if token.kind == .endOfFile { stoppedAtEndOfFile = true }
      report(.expectedExpression(found: describe(token)), at: expectationRange)
      throw SyntaxError()
    }
  }

  /// ident | ident '(' ( expression ( ',' expression )* )? ')' | ident '[' expression ']'
  private func parseIdentifierOrCall() throws -> ExprID {
    let nameRange = token.range
    let name = internCurrentName()
    advance()
    if token.kind == .leftBracket { return try parseElement(of: name, at: nameRange) }
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
    try expect(.keyword(.then), "'then'", notes: [Note(.openedHere("'if'"), in: file, at: ifRange)])
    let thenBranch = try parseNestedExpression()
    try expect(.keyword(.else), "'else'", notes: [Note(.openedHere("'if'"), in: file, at: ifRange)])
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
    try expect(.keyword(.in), "'in'", notes: [Note(.openedHere("'for'"), in: file, at: forRange)])
    let body = try parseNestedExpression()
    let loop = ForLoop(
      variable: variable, variableRange: variableRange, start: start, end: end, step: step, body: body)
    return tree.addLoop(.forLoop(loop), at: forRange.start)
  }

  /// 'while' expression 'in' expression
  private func parseWhile() throws -> ExprID {
    let whileRange = token.range
    advance()
    let condition = try parseNestedExpression()
    try expect(.keyword(.in), "'in'", notes: [Note(.openedHere("'while'"), in: file, at: whileRange)])
    let body = try parseNestedExpression()
    return tree.addLoop(.whileLoop(WhileLoop(condition: condition, body: body)), at: whileRange.start)
  }

  /// 'var' binding ( ',' binding )* 'in' expression
  private func parseVar() throws -> ExprID {
    let varRange = token.range
    advance()
    let mark = pendingBindings.count
    defer { pendingBindings.removeLast(pendingBindings.count - mark) }
    try parseBindings()
    try expect(.keyword(.in), "'in' after the variables", notes: [Note(.openedHere("'var'"), in: file, at: varRange)])
    let body = try parseNestedExpression()
    return tree.addVarIn(pendingBindings[mark...], body: body, at: varRange.start)
  }

  /// binding ( ',' binding )*, pushed on `pendingBindings`. A binding that breaks off after
  /// its name is pushed too, with an error node for its value, so that a broken declaration
  /// still declares every name it reached.
  func parseBindings() throws {
    let mark = pendingBindings.count
    while true {
      pendingBindings.append(try parseBinding(first: pendingBindings.count == mark))
      guard token.kind == .comma else { return }
      advance()
    }
  }

  /// binding ::= ident ( '=' expression )?
  ///           | ident '[' expression ']'
  ///           | ident '[' ']' '=' ( arraylit | string )
  private func parseBinding(first: Bool) throws -> VarBinding {
    guard token.kind == .identifier else {
      throw fail(expected: first ? "a variable name after 'var'" : "a variable name after ','")
    }
    let nameRange = token.range
    let name = internCurrentName()
    advance()
    let isArray = token.kind == .leftBracket
    do {
      let value = try isArray ? parseArrayValue() : parseNumberValue()
      return VarBinding(name: name, nameRange: nameRange, value: value)
    } catch {
      let placeholder = tree.addError(at: nameRange.end)
      let value: VarBinding.Value = isArray ? .zeros(count: placeholder) : .number(initializer: placeholder)
      pendingBindings.append(VarBinding(name: name, nameRange: nameRange, value: value))
      throw error
    }
  }

  /// ( '=' expression )?, after a number's name.
  private func parseNumberValue() throws -> VarBinding.Value {
    guard isOperator("=") else { return .number(initializer: nil) }
    advance()
    return .number(initializer: try parseNestedExpression())
  }

  /// '[' expression ']' | '[' ']' '=' ( arraylit | string ), after an array's name.
  private func parseArrayValue() throws -> VarBinding.Value {
    let open = token.range
    advance()
    if token.kind == .rightBracket {
      advance()
      try expectOperator("=", "'=' and the array's elements after '[]'")
      switch token.kind {
      case .leftBracket: return .elements(try parseArrayLiteral())
      case .string: return .elements(parseString())
      default: throw fail(expected: "an array literal or a string after '[] ='")
      }
    }
    let count = try parseNestedExpression()
    try expect(.rightBracket, "']' after the array's size", notes: [Note(.openedHere("'['"), in: file, at: open)])
    if isOperator("=") {
      report(.sizedArrayInitializer, at: token.range)
      throw SyntaxError()
    }
    return .zeros(count: count)
  }

  /// ident '[' expression ']', after the identifier.
  private func parseElement(of array: Name, at nameRange: SourceRange) throws -> ExprID {
    let open = token.range
    advance()
    let index = try parseNestedExpression()
    try expect(.rightBracket, "']' after the index", notes: [Note(.openedHere("'['"), in: file, at: open)])
    if token.kind == .leftBracket {
      report(.oneDimension(file.text(in: nameRange)), at: token.range)
      throw SyntaxError()
    }
    return tree.addElement(array, index: index, at: nameRange.start)
  }

  /// 'len' '(' ident ')'
  private func parseLength() throws -> ExprID {
    advance()
    try expect(.leftParen, "'(' after 'len'")
    let open = previousTokenEnd - 1
    guard token.kind == .identifier else { throw fail(expected: "the name of an array in 'len(...)'") }
    let array = internCurrentName()
    // The node's token is the name, where a misuse is reported.
    let nameStart = token.range.start
    advance()
    try expect(.rightParen, "')'", notes: [Note(.openedHere("'('"), in: file, at: SourceRange(start: open, end: open + 1))])
    return tree.addLength(array, at: nameStart)
  }

  /// arraylit ::= '[' ( expression ( ',' expression )* ','? )? ']'
  private func parseArrayLiteral() throws -> ExprID {
    let open = token.range
    advance()
    let mark = pendingArguments.count
    defer { pendingArguments.removeLast(pendingArguments.count - mark) }
    while token.kind != .rightBracket {
      pendingArguments.append(try parseNestedExpression())
      if token.kind == .comma {
        advance()
      } else if token.kind != .rightBracket {
        throw fail(expected: "',' or ']' in the array literal", notes: [Note(.openedHere("'['"), in: file, at: open)])
      }
    }
    advance()
    return tree.addArrayLiteral(pendingArguments[mark...], at: open.start)
  }

  /// string ::= '"' ( char | escape )* '"'
  private func parseString() -> ExprID {
    let range = token.range
    advance()
    return tree.addString(StringLiteral.bytes(of: bytes[range.start..<range.end]), at: range.start)
  }
}
