import KaleidoscopeFrontend

/// The layout of each construct, on one line (`flat`) or broken.
extension Printer {
  /// Writes an expression: on one line if it fits, else broken.
  func expression(_ id: ExprID) {
    write(id, flat: fits(id))
  }

  /// Writes an expression and the parentheses written around it.
  func write(_ id: ExprID, flat: Bool) {
    if out.measuring {
      measure(id) { parenthesized(id, flat: true) }
    } else {
      parenthesized(id, flat: flat)
    }
  }

  private func parenthesized(_ id: ExprID, flat: Bool) {
    let parentheses = tree.parentheses(around: id)
    for _ in 0..<parentheses { token(.leftParen) }
    content(id, flat: flat)
    for _ in 0..<parentheses { token(.rightParen) }
  }

  /// A part of a construct: on one line when the construct is, else as it fits.
  private func part(_ id: ExprID, flat: Bool) {
    if flat { write(id, flat: true) } else { expression(id) }
  }

  /// What follows `=`: after a space when it fits there, or when it is a list (`[...]`, a
  /// call) that breaks inside; else on the next line, indented.
  private func operand(_ id: ExprID, flat: Bool) {
    if flat || fits(id, after: 1) {
      out.space()
      write(id, flat: true)
    } else if isList(id) {
      out.space()
      write(id, flat: false)
    } else {
      indented {
        newline()
        expression(id)
      }
    }
  }

  /// Whether `id` is an array literal or a call, not in parentheses.
  private func isList(_ id: ExprID) -> Bool {
    guard tree.parentheses(around: id) == 0 else { return false }
    switch tree[id] {
    case .arrayLiteral, .call: return true
    default: return false
    }
  }

  private func content(_ id: ExprID, flat: Bool) {
    switch tree[id] {
    case .number:
      token(.number)
    case .string:
      token(.string)
    case .variable:
      token(.identifier)
    case .unary(let op, let operand):
      token(.operatorChar)
      // `.` then a number would be read back as one number (`.5`).
      if op == UInt8(ascii: "."), source.next == .number { out.space() }
      part(operand, flat: flat)
    case .binary(_, let lhs, let rhs):
      binaryChain(lhs, rhs, flat: flat)
    case .assign(let target, let value):
      part(target, flat: flat)
      out.space()
      token(.operatorChar)
      operand(value, flat: flat)
    case .element(_, let index):
      token(.identifier)
      token(.leftBracket)
      part(index, flat: flat)
      token(.rightBracket)
    case .storeElement(_, let index, let value):
      token(.identifier)
      token(.leftBracket)
      part(index, flat: flat)
      token(.rightBracket)
      out.space()
      token(.operatorChar)
      operand(value, flat: flat)
    case .length:
      token(.keyword(.len))
      token(.leftParen)
      token(.identifier)
      token(.rightParen)
    case .call(_, let arguments):
      token(.identifier)
      token(.leftParen)
      list(tree.arguments(arguments), closing: .rightParen, flat: flat)
    case .arrayLiteral(let elements):
      token(.leftBracket)
      list(tree.arguments(elements), closing: .rightBracket, flat: flat)
    case .ifElse(let condition, let then, let otherwise):
      ifElse(condition, then, otherwise, flat: flat)
    case .loop(let index):
      switch tree.loop(index) {
      case .forLoop(let loop): forLoop(loop, flat: flat)
      case .whileLoop(let loop): whileLoop(loop, flat: flat)
      }
    case .varIn(let index):
      let varIn = tree.varIn(index)
      token(.keyword(.var))
      out.space()
      bindings(varIn.bindings, flat: flat)
      out.space()
      token(.keyword(.in))
      body(varIn.body, flat: flat)
    case .globalDeclaration(let index):
      token(.keyword(.var))
      out.space()
      bindings(tree.globalDeclaration(index), flat: flat)
    case .error:
      preconditionFailure("a file with syntax errors is not formatted")
    }
  }

  /// `a op b op c`: on one line when it fits; else each operator ends a line and the next
  /// operand, when it does not fit after it, starts the following line, indented. The
  /// chain is the left spine of binary operators not written in parentheses; its right
  /// operands are gathered on `chain`, a stack shared by nested chains.
  private func binaryChain(_ lhs: ExprID, _ rhs: ExprID, flat: Bool) {
    let base = chain.count
    chain.append(rhs)
    var first = lhs
    while tree.parentheses(around: first) == 0, case .binary(_, let left, let right) = tree[first] {
      chain.append(right)
      first = left
    }
    part(first, flat: flat)
    indented {
      while chain.count > base {
        let operand = chain.removeLast()
        out.space()
        token(.operatorChar)
        if flat || fits(operand, after: 1) {
          out.space()
          write(operand, flat: true)
        } else {
          newline()
          expression(operand)
        }
      }
    }
  }

  /// Arguments or elements, after the opening token: on one line, or one to a line,
  /// indented, with the closing token on a line of its own. A trailing comma in an array
  /// literal is not written.
  private func list(_ items: ExprIDs, closing: TokenKind, flat: Bool) {
    if flat || items.isEmpty {
      for (index, item) in items.enumerated() {
        if index > 0 {
          token(.comma)
          out.space()
        }
        write(item, flat: true)
      }
    } else {
      indented {
        for (index, item) in items.enumerated() {
          newline()
          expression(item)
          if index < items.count - 1 { token(.comma) }
        }
      }
      newline()
    }
    if closing == .rightBracket, source.next == .comma {
      writeComments()
      _ = source.take(.comma)
    }
    token(closing)
  }

  /// `if c then a else b`, broken as below; once broken, every `else if` of the chain is.
  ///
  ///     if c then
  ///       a
  ///     else if d then
  ///       b
  ///     else
  ///       e
  private func ifElse(_ condition: ExprID, _ then: ExprID, _ otherwise: ExprID, flat: Bool) {
    token(.keyword(.if))
    out.space()
    part(condition, flat: flat)
    out.space()
    token(.keyword(.then))
    if flat {
      out.space()
      write(then, flat: true)
      out.space()
      token(.keyword(.else))
      out.space()
      write(otherwise, flat: true)
      return
    }
    indented {
      newline()
      expression(then)
    }
    newline()
    token(.keyword(.else))
    if case .ifElse = tree[otherwise], tree.parentheses(around: otherwise) == 0 {
      out.space()
      content(otherwise, flat: false)
    } else {
      indented {
        newline()
        expression(otherwise)
      }
    }
  }

  /// `while condition in body`, broken after `in` as `for` is.
  private func whileLoop(_ loop: WhileLoop, flat: Bool) {
    token(.keyword(.while))
    out.space()
    indented(by: 2) {
      part(loop.condition, flat: flat)
      out.space()
      token(.keyword(.in))
    }
    body(loop.body, flat: flat)
  }

  /// `for i = start, end, step in body`, broken after `in`; a header that a comment breaks
  /// goes on indented twice.
  private func forLoop(_ loop: ForLoop, flat: Bool) {
    token(.keyword(.for))
    out.space()
    indented(by: 2) {
      token(.identifier)
      out.space()
      token(.operatorChar)
      out.space()
      part(loop.start, flat: flat)
      token(.comma)
      out.space()
      part(loop.end, flat: flat)
      if let step = loop.step {
        token(.comma)
        out.space()
        part(step, flat: flat)
      }
      out.space()
      token(.keyword(.in))
    }
    body(loop.body, flat: flat)
  }

  /// The body of a `for` or `var`: after `in` when it fits, else on the next line, indented.
  private func body(_ id: ExprID, flat: Bool) {
    if flat || fits(id, after: 1) {
      out.space()
      write(id, flat: true)
    } else {
      indented {
        newline()
        expression(id)
      }
    }
  }

  /// The bindings of a `var`, separated by commas; those that do not fit on the line start
  /// the next one, indented twice.
  private func bindings(_ bindings: Bindings, flat: Bool) {
    var wrapped = false
    for (index, binding) in tree.bindings(bindings).enumerated() {
      if index > 0 {
        token(.comma)
        if flat || fitsBinding(binding) {
          out.space()
        } else {
          if !wrapped { out.indentation += 2 * Self.indentation }
          wrapped = true
          newline()
        }
      }
      self.binding(binding, flat: flat)
    }
    if wrapped { out.indentation -= 2 * Self.indentation }
  }

  /// Whether a binding fits on the line after a space; the next token is its name.
  private func fitsBinding(_ binding: VarBinding) -> Bool {
    let measurer = Printer(tree: tree, source: source, out: LineWriter(measuring: true), widths: widths)
    measurer.binding(binding, flat: true)
    return !measurer.out.broke && out.column + 1 + measurer.out.column <= Self.lineWidth
  }

  /// `x`, `x = e`, `a[n]`, `a[] = [...]`.
  func binding(_ binding: VarBinding, flat: Bool) {
    token(.identifier)
    switch binding.value {
    case .number(let initializer):
      guard let initializer else { return }
      out.space()
      token(.operatorChar)
      operand(initializer, flat: flat)
    case .zeros(let count):
      token(.leftBracket)
      part(count, flat: flat)
      token(.rightBracket)
    case .elements(let elements):
      token(.leftBracket)
      token(.rightBracket)
      out.space()
      token(.operatorChar)
      operand(elements, flat: flat)
    }
  }
}
