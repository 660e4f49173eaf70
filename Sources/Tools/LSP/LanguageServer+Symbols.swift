import KaleidoscopeFrontend

/// Document and workspace symbols, and folding ranges: the outline of a program.
extension LanguageServer {
  func documentSymbols(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: DocumentParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    return Outline(analysis: analysis).symbols()
  }

  func workspaceSymbols(_ params: IncomingMessage) throws -> any Encodable {
    let query = try decode(params, as: WorkspaceSymbolParams.self).query.lowercased()
    var found: [SymbolInformation] = []
    for uri in documents.keys.sorted() {
      guard let analysis = analysis(uri) else { continue }
      for symbol in Outline(analysis: analysis).symbols() where Self.matches(symbol.name.lowercased(), query) {
        found.append(
          SymbolInformation(name: symbol.name, kind: symbol.kind, location: Location(uri: uri, range: symbol.selectionRange)))
      }
    }
    return found
  }

  /// Whether the query's characters appear in the name in order (`fb` finds `fib`).
  static func matches(_ name: String, _ query: String) -> Bool {
    var rest = Substring(query)
    for character in name where rest.first == character { rest = rest.dropFirst() }
    return rest.isEmpty
  }

  func foldingRanges(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: DocumentParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    return Outline(analysis: analysis).foldingRanges()
  }
}

/// The items of a program as an outline.
struct Outline {
  let analysis: Analysis

  /// Functions, operators, externs and globals, with each function's parameters and
  /// variables inside it.
  func symbols() -> [DocumentSymbol] {
    let tree = analysis.tree
    let document = analysis.document
    var symbols: [DocumentSymbol] = []
    for item in tree.items {
      switch item {
      case .definition(let definition):
        let body = analysis.program.bodies.first { $0.range == definition.range }
        let children = body?.locals.map { local in
          DocumentSymbol(
            name: tree.text(local.name), detail: nil,
            kind: local.valueKind == .array ? SymbolKind.array : SymbolKind.variable,
            range: document.range(of: local.range), selectionRange: document.range(of: local.range), children: nil)
        }
        symbols.append(symbol(for: definition.prototype, keyword: "def", range: definition.range, children: children))
      case .external(let prototype):
        symbols.append(symbol(for: prototype, keyword: "extern", range: prototype.range, children: nil))
      case .brokenDefinition(let prototype):
        symbols.append(symbol(for: prototype, keyword: "def", range: prototype.range, children: nil))
      case .globals(let root):
        guard case .globalDeclaration(let index) = tree[root] else { continue }
        for binding in tree.bindings(tree.globalDeclaration(index)) {
          let range = document.range(of: binding.nameRange)
          symbols.append(
            DocumentSymbol(
              name: tree.text(binding.name), detail: binding.kind == .array ? "global array" : "global",
              kind: binding.kind == .array ? SymbolKind.array : SymbolKind.variable, range: range, selectionRange: range,
              children: nil))
        }
      case .expression:
        break
      }
    }
    return symbols
  }

  private func symbol(for prototype: Prototype, keyword: String, range: SourceRange, children: [DocumentSymbol]?)
    -> DocumentSymbol
  {
    let tree = analysis.tree
    let document = analysis.document
    let kind = prototype.kind == .function ? SymbolKind.function : SymbolKind.operator
    return DocumentSymbol(
      name: tree.text(prototype.name), detail: "\(keyword) \(tree.describe(prototype))", kind: kind,
      range: document.range(of: range.union(prototype.nameRange)), selectionRange: document.range(of: prototype.nameRange),
      children: children)
  }

  /// Definitions that span lines, and runs of two or more comment lines.
  func foldingRanges() -> [FoldingRange] {
    let document = analysis.document
    var ranges: [FoldingRange] = []
    for item in analysis.tree.items {
      guard case .definition(let definition) = item else { continue }
      let start = document.position(of: definition.range.start).line
      let end = document.position(of: definition.range.end).line
      if end > start { ranges.append(FoldingRange(startLine: start, endLine: end, kind: nil)) }
    }
    var line = 0
    while line < document.lineCount {
      var end = line
      while end < document.lineCount && isComment(document.line(end)) { end += 1 }
      if end - line >= 2 { ranges.append(FoldingRange(startLine: line, endLine: end - 1, kind: "comment")) }
      line = max(end, line + 1)
    }
    return ranges.sorted { $0.startLine < $1.startLine }
  }

  private func isComment(_ line: ArraySlice<UInt8>) -> Bool {
    line.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } == UInt8(ascii: "#")
  }
}
