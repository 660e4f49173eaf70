import KaleidoscopeFrontend

/// A document as the front end sees it: the text checked exactly as `kaleidoscope check`
/// checks a file, and, built on first use, the index of its names.
final class Analysis {
  let document: Document
  let file: SourceFile
  let result: FrontendResult

  /// Checks the document's text (on a large stack, as the tool does: the passes recurse
  /// over nesting).
  init(_ document: Document) {
    self.document = document
    file = SourceFile(name: document.name, bytes: document.bytes)
    let file = self.file
    result = LargeStack.run { Frontend.check(file) }
  }

  var program: CheckedProgram { result.program }
  var tree: SyntaxTree { result.program.tree }

  private(set) lazy var index = SymbolIndex(result.program)

  /// The diagnostics in the protocol's terms: the same messages, ranges and notes as `check`
  /// prints. A note without a place of its own is put at its diagnostic's place, where
  /// `check` prints it.
  var diagnostics: [LSPDiagnostic] {
    result.diagnostics.sorted.map { diagnostic in
      let range = document.range(of: diagnostic.range)
      let notes = diagnostic.notes.map { note in
        DiagnosticRelatedInformation(
          location: Location(uri: document.uri, range: note.range.map(document.range(of:)) ?? range),
          message: note.message.text)
      }
      return LSPDiagnostic(
        range: range, severity: Self.severity(diagnostic.severity), code: diagnostic.message.id, source: "kaleidoscope",
        message: diagnostic.message.text, relatedInformation: notes.isEmpty ? nil : notes)
    }
  }

  static func severity(_ severity: Severity) -> Int {
    switch severity {
    case .error: 1
    case .warning: 2
    case .note: 3
    }
  }

  /// The token that contains `offset`, else the one that ends there, lexed from the start
  /// of its line: between `(` and `for`, the cursor is on `for`.
  func token(at offset: Int) -> Token? {
    let line = document.position(of: offset).line
    let lineStart = document.offset(of: Position(line: line, character: 0))
    return document.bytes.withUnsafeBufferPointer { bytes in
      var lexer = Lexer(bytes: bytes, position: lineStart)
      var endingHere: Token?
      while true {
        let token = lexer.next()
        if token.kind == .endOfFile || token.range.start > offset { return endingHere }
        if offset < token.range.end { return token }
        if offset == token.range.end { endingHere = token }
      }
    }
  }

  /// The name a symbol is written with.
  func spelling(of symbol: Symbol) -> String {
    switch symbol {
    case .function(let id): program.functions[id].spelling
    case .global(let id): program.globals[id].spelling
    case .local(let body, let local): tree.text(program.bodies[body].locals[Int(local.index)].name)
    }
  }

  /// Where a symbol is declared: a function's definition (else its first `extern`), a
  /// global's binding, a local's parameter, binding or loop variable.
  func declaration(of symbol: Symbol) -> SourceRange {
    switch symbol {
    case .function(let id): return program.functions[id].prototype.nameRange
    case .global(let id): return program.globals[id].range
    case .local(let body, let local):
      let declaration = program.bodies[body].locals[Int(local.index)]
      return SourceRange(start: declaration.range.start, end: declaration.range.start + tree.text(declaration.name).utf8.count)
    }
  }
}
