import KaleidoscopeFrontend

/// Hover, go to definition, references and rename: all answered from the symbol index.
extension LanguageServer {
  /// The analysis and the occurrence under a request's position, if any.
  private func occurrence(_ params: TextDocumentPositionParams) -> (Analysis, Occurrence)? {
    guard let analysis = analysis(params.textDocument.uri) else { return nil }
    let offset = analysis.document.offset(of: params.position)
    return analysis.index.occurrence(at: offset).map { (analysis, $0) }
  }

  func hover(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: TextDocumentPositionParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    let offset = analysis.document.offset(of: request.position)
    let describer = HoverText(analysis: analysis)
    if let occurrence = analysis.index.occurrence(at: offset) {
      let hover = Hover(
        contents: MarkupContent(kind: "markdown", value: describer.describe(occurrence.symbol)),
        range: analysis.document.range(of: occurrence.range))
      return hover
    }
    guard let (text, range) = describer.describeKeyword(at: offset) ?? describer.describeBuiltinOperator(at: offset) else {
      return JSON.null
    }
    return Hover(contents: MarkupContent(kind: "markdown", value: text), range: analysis.document.range(of: range))
  }

  func definition(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: TextDocumentPositionParams.self)
    guard let (analysis, occurrence) = occurrence(request) else { return JSON.null }
    let range = analysis.declaration(of: occurrence.symbol)
    return Location(uri: analysis.document.uri, range: analysis.document.range(of: range))
  }

  func references(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: ReferenceParams.self)
    let position = TextDocumentPositionParams(textDocument: request.textDocument, position: request.position)
    guard let (analysis, occurrence) = occurrence(position) else { return JSON.array([]) }
    let includeDeclaration = request.context?.includeDeclaration ?? true
    let locations = analysis.index.occurrences(of: occurrence.symbol)
      .filter { includeDeclaration || !$0.isDeclaration }
      .map { Location(uri: analysis.document.uri, range: analysis.document.range(of: $0.range)) }
    return locations
  }

  func prepareRename(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: TextDocumentPositionParams.self)
    guard let (analysis, occurrence) = occurrence(request) else { return JSON.null }
    try Renaming(analysis: analysis).checkRenamable(occurrence.symbol)
    let result = PrepareRenameResult(
      range: analysis.document.range(of: occurrence.range), placeholder: analysis.spelling(of: occurrence.symbol))
    return result
  }

  func rename(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: RenameParams.self)
    let position = TextDocumentPositionParams(textDocument: request.textDocument, position: request.position)
    guard let (analysis, occurrence) = occurrence(position) else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "there is no name here to rename")
    }
    let edits = try Renaming(analysis: analysis).edits(renaming: occurrence.symbol, to: request.newName)
    return WorkspaceEdit(changes: [analysis.document.uri: edits])
  }
}

/// What renaming a symbol takes, and when it is refused: a new name must be an identifier
/// that is not a keyword, and must not clash with a name already visible where the symbol
/// is; operators and host functions (whose names the linker looks up) keep their names.
struct Renaming {
  let analysis: Analysis

  func checkRenamable(_ symbol: Symbol) throws {
    guard case .function(let id) = symbol else { return }
    let function = analysis.program.functions[id]
    if function.prototype.kind != .function {
      throw ResponseError(code: ErrorCode.requestFailed, message: "an operator cannot be renamed")
    }
    if function.origin == .external {
      throw ResponseError(
        code: ErrorCode.requestFailed, message: "'\(function.spelling)' is provided by the host; its name cannot change")
    }
  }

  func edits(renaming symbol: Symbol, to newName: String) throws -> [TextEdit] {
    try checkRenamable(symbol)
    try checkValid(newName)
    try checkNoClash(symbol, newName)
    return analysis.index.occurrences(of: symbol).map {
      TextEdit(range: analysis.document.range(of: $0.range), newText: newName)
    }
  }

  private func checkValid(_ name: String) throws {
    let bytes = Array(name.utf8)
    let isLetter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard let first = bytes.first, isLetter(first), bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") })
    else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "'\(name)' is not a valid name")
    }
    if Keyword(rawValue: name) != nil || name == "len" {
      throw ResponseError(code: ErrorCode.requestFailed, message: "'\(name)' is a keyword")
    }
  }

  /// A new name must not be taken by a function or a global; nor, for a local, by another
  /// local of its body; nor, for a function, by any local; nor, for a global, by a local of
  /// a body that uses the global (which the local would hide).
  private func checkNoClash(_ symbol: Symbol, _ newName: String) throws {
    let program = analysis.program
    let tree = analysis.tree
    let refuse = { (message: String) in ResponseError(code: ErrorCode.requestFailed, message: message) }
    if program.function(named: newName) != nil {
      throw refuse("a function named '\(newName)' already exists")
    }
    if program.global(named: newName) != nil {
      throw refuse("a global named '\(newName)' already exists")
    }
    let bodiesWithLocal = program.bodies.filter { $0.locals.contains { tree.text($0.name) == newName } }
    switch symbol {
    case .function:
      if !bodiesWithLocal.isEmpty { throw refuse("a variable named '\(newName)' already exists") }
    case .global:
      let uses = analysis.index.occurrences(of: symbol)
      for body in bodiesWithLocal
      where uses.contains(where: { body.range.start <= $0.range.start && $0.range.end <= body.range.end }) {
        throw refuse("a variable named '\(newName)' would hide the global where it is used")
      }
    case .local(let body, _):
      if program.bodies[body].locals.contains(where: { tree.text($0.name) == newName }) {
        throw refuse("'\(newName)' is already a name in this function")
      }
    }
  }
}
