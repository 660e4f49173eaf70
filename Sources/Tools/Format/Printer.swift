import KaleidoscopeFrontend

/// Writes a syntax tree in the canonical layout (docs/STYLE.md).
///
/// The tree decides the layout: where lines break, how deep they are indented, where spaces
/// go. The tokens themselves come from the source, in order (`SourceCursor`), so every
/// token is written as it was written, the parentheses the programmer wrote are kept, and
/// each comment comes out between the tokens it stood between.
///
/// An expression is written on one line when it fits in what is left of the line and holds
/// no comment; otherwise it is broken by the rules of its construct, each part again on
/// one line if it fits. Widths are measured by writing an expression into a measuring
/// writer (`flatWidth`) and remembered (`WidthCache`), so each is measured once.
final class Printer {
  static let lineWidth = 100
  static let indentation = 2

  let tree: SyntaxTree
  var source: SourceCursor
  var out: LineWriter
  /// The one-line width of each expression measured so far, shared with the measuring
  /// printers.
  let widths: WidthCache
  /// The right operands of the binary chains being written (`binaryChain`).
  var chain: [ExprID] = []

  init(tree: SyntaxTree, source: SourceCursor, out: LineWriter = LineWriter(), widths: WidthCache? = nil) {
    self.tree = tree
    self.source = source
    self.out = out
    self.widths = widths ?? WidthCache(count: tree.exprCount)
  }

  // MARK: - Items

  /// Writes every item, the comments between them, and those at the end of the file.
  func program() {
    for item in tree.items {
      startItem()
      self.item(item)
      if needsSeparator() { out.write(";") }
    }
    skipSemicolons()
    writeComments()
    out.newline()
  }

  /// Ends the previous item's line and leaves an empty line where the source had one.
  private func startItem() {
    skipSemicolons()
    writeComments()
    out.newline()
    if source.blankLineBeforeNext() { out.blankLine() }
  }

  /// Semicolons that only end items are not written (`needsSeparator` writes those that
  /// keep two items apart).
  private func skipSemicolons() {
    while source.next == .semicolon {
      writeComments()
      _ = source.take(.semicolon)
    }
  }

  /// Whether the next item would continue this one without a `;`: it starts with a
  /// parenthesis, a bracket or an operator character (`f(x) x` then `(1)` is `x(1)`).
  private func needsSeparator() -> Bool {
    var lookahead = source
    while lookahead.next == .semicolon { _ = lookahead.take(.semicolon) }
    switch lookahead.next {
    case .leftParen?, .leftBracket?, .operatorChar?: return true
    default: return false
    }
  }

  private func item(_ item: Item) {
    switch item {
    case .definition(let definition):
      token(.keyword(.def))
      out.space()
      prototype(definition.prototype)
      body(definition.body)
    case .external(let prototype):
      token(.keyword(.extern))
      out.space()
      self.prototype(prototype)
    case .expression(let root):
      expression(root)
    case .globals(let root):
      write(root, flat: fits(root))
    case .brokenDefinition:
      preconditionFailure("a file with syntax errors is not formatted")
    }
  }

  /// `fib(n)`, `unary!(v)`, `binary| 5 (a, b)`; parameters are separated by commas.
  private func prototype(_ prototype: Prototype) {
    switch prototype.kind {
    case .function:
      token(.identifier)
    case .unaryOperator:
      token(.keyword(.unary))
      token(.operatorChar)
    case .binaryOperator:
      token(.keyword(.binary))
      token(.operatorChar)
      if source.next == .number {
        out.space()
        token(.number)
      }
      out.space()
    }
    token(.leftParen)
    for (index, parameter) in prototype.parameters.enumerated() {
      if index > 0 {
        // Commas between parameters are optional in the source, and always written.
        writeComments()
        _ = source.take(ifNext: .comma)
        out.write(",")
        out.space()
      }
      token(.identifier)
      if parameter.kind == .array {
        token(.leftBracket)
        token(.rightBracket)
      }
    }
    token(.rightParen)
  }

  /// A definition's body: on the prototype's line if it fits, else indented below it.
  private func body(_ id: ExprID) {
    if fits(id, after: 1) {
      out.space()
      write(id, flat: true)
    } else {
      indented {
        newline()
        expression(id)
      }
    }
  }

  // MARK: - Tokens and comments

  /// Writes the next source token, which must be of `kind`, after the comments before it.
  func token(_ kind: TokenKind) {
    writeComments()
    out.write(source.text(source.take(kind)))
  }

  /// Writes the comments that come before the next token: one that trails a token stays
  /// on that token's line, two spaces after it; the others stand on lines of their own, an
  /// empty line before them where the source had one. A comment ends its line.
  func writeComments() {
    guard source.hasCommentBeforeNext else { return }
    for comment in source.takeComments() {
      if comment.isTrailing && !out.isAtLineStart {
        out.trailingComment(source.text(comment.range))
      } else {
        out.newline()
        if comment.followsBlankLine { out.blankLine() }
        out.write(source.text(comment.range))
      }
      out.newline()
    }
  }

  /// Ends the line, after the comment that trails it in the source (a comment after
  /// `then 1` stays after the `1` when `else` starts the next line).
  func newline() {
    if !out.isAtLineStart, let comment = source.takeTrailingComment() {
      out.trailingComment(source.text(comment.range))
    }
    out.newline()
  }

  /// Runs `body` with the indentation one step deeper.
  func indented(by steps: Int = 1, _ body: () -> Void) {
    out.indentation += steps * Self.indentation
    body()
    out.indentation -= steps * Self.indentation
  }

  // MARK: - Measuring

  /// Whether `id` fits on the current line, after `extra` more columns.
  func fits(_ id: ExprID, after extra: Int = 0) -> Bool {
    flatWidth(id) <= Self.lineWidth - out.column - extra
  }

  /// The width of `id` written on one line, from the next source token; `Int.max` when it
  /// cannot be (it holds a comment).
  func flatWidth(_ id: ExprID) -> Int {
    if let measured = widths[id] { return measured.width }
    let measurer = Printer(tree: tree, source: source, out: LineWriter(measuring: true), widths: widths)
    measurer.write(id, flat: true)
    return widths[id]!.width
  }

  /// Measures `id` on one line while measuring, and remembers how wide it is, as it does for
  /// every expression inside it, so none is measured twice: one measured before is skipped.
  func measure(_ id: ExprID, writing: () -> Void) {
    if let measured = widths[id] {
      source.skip(to: measured.next)
      if measured.width == Int.max { out.newline() } else { out.skip(width: measured.width) }
      return
    }
    let (column, breaks) = (out.column, out.breaks)
    writing()
    let width = out.breaks > breaks ? Int.max : out.column - column
    widths[id] = (width, source.position)
  }
}

/// The one-line width of each expression measured so far (`Int.max` when a comment inside
/// keeps it from being one line) and the index of the token after it, by node, shared by a
/// printer and its measurers.
final class WidthCache {
  private var widths: [Int32]
  private var nextTokens: [UInt32]

  init(count: Int) {
    widths = [Int32](repeating: -1, count: count)
    nextTokens = [UInt32](repeating: 0, count: count)
  }

  subscript(id: ExprID) -> (width: Int, next: Int)? {
    get {
      let index = Int(id.index)
      guard widths[index] >= 0 else { return nil }
      return (widths[index] == Int32.max ? Int.max : Int(widths[index]), Int(nextTokens[index]))
    }
    set {
      guard let newValue else { return }
      let index = Int(id.index)
      widths[index] = Int32(clamping: newValue.width)
      nextTokens[index] = UInt32(newValue.next)
    }
  }
}
