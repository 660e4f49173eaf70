import KaleidoscopeFrontend

/// Completion and signature help: what can be typed here.
extension LanguageServer {
  /// Keywords, functions and externs, user-defined operators, globals and arrays, and the
  /// variables of the function the cursor is in (declared before it), each with its
  /// signature or kind. The client filters them by what has been typed.
  func completion(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: TextDocumentPositionParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    let offset = analysis.document.offset(of: request.position)
    let tree = analysis.tree
    var items = Keyword.allCases.map { keyword in
      let detail = keyword == .len ? "len(array): the number of elements" : "keyword"
      return CompletionItem(label: keyword.rawValue, kind: CompletionItemKind.keyword, detail: detail)
    }
    for function in analysis.program.functions.symbols {
      let keyword = function.origin == .external ? "extern" : "def"
      let detail = "\(keyword) \(tree.describe(function.prototype))"
      switch function.prototype.kind {
      case .function:
        items.append(CompletionItem(label: function.spelling, kind: CompletionItemKind.function, detail: detail))
      case .unaryOperator(let op), .binaryOperator(let op, _):
        items.append(CompletionItem(label: String(UnicodeScalar(op)), kind: CompletionItemKind.operator, detail: detail))
      }
    }
    for global in analysis.program.globals.symbols {
      let detail = global.kind == .array ? "global array" : "global number"
      items.append(CompletionItem(label: global.spelling, kind: CompletionItemKind.variable, detail: detail))
    }
    for (name, detail) in localsInScope(analysis, at: offset) {
      items.append(CompletionItem(label: name, kind: CompletionItemKind.variable, detail: detail, sortText: "0\(name)"))
    }
    return CompletionList(isIncomplete: false, items: items)
  }

  /// The parameters and variables of the definition around `offset` declared before it.
  /// A definition whose body does not parse yet (being typed) still offers its parameters.
  private func localsInScope(_ analysis: Analysis, at offset: Int) -> [(String, String)] {
    let tree = analysis.tree
    if let body = analysis.program.bodies.first(where: {
      $0.function != nil && $0.range.start <= offset && offset <= $0.range.end
    }) {
      var seen: Set<String> = []
      return body.locals.filter { $0.range.start < offset }.reversed().compactMap { local in
        let name = tree.text(local.name)
        guard seen.insert(name).inserted else { return nil }  // the innermost of a name
        let kind =
          switch local.kind {
          case .parameter: "parameter"
          case .variable: "variable"
          case .loopVariable: "loop variable"
          }
        return (name, local.valueKind == .array ? "\(kind), array" : kind)
      }
    }
    let broken = tree.items.last { item in
      if case .brokenDefinition(let prototype) = item { return prototype.range.start < offset }
      return false
    }
    guard case .brokenDefinition(let prototype)? = broken,
      !tree.items.contains(where: { Self.start(of: $0, in: tree).map { $0 > prototype.range.start && $0 < offset } ?? false })
    else { return [] }
    return prototype.parameters.map { (tree.text($0.name), $0.kind == .array ? "parameter, array" : "parameter") }
  }

  private static func start(of item: Item, in tree: SyntaxTree) -> Int? {
    switch item {
    case .definition(let definition): definition.range.start
    case .external(let prototype), .brokenDefinition(let prototype): prototype.range.start
    case .expression(let root), .globals(let root): tree.firstTokenStart(of: root)
    }
  }

  /// The function whose call the cursor is inside, its signature, and which argument the
  /// cursor is in. Found from the tokens (the call is usually unfinished while it is typed).
  func signatureHelp(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: TextDocumentPositionParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    let offset = analysis.document.offset(of: request.position)
    guard let (name, argument) = Self.enclosingCall(Lexer.tokenize(analysis.file), before: offset, in: analysis.document.bytes),
      let id = analysis.program.function(named: name)
    else { return JSON.null }
    let function = analysis.program.functions[id]
    guard function.prototype.kind == .function else { return JSON.null }
    var label = "\(name)("
    var parameters: [ParameterInformation] = []
    for (index, parameter) in function.prototype.parameters.enumerated() {
      if index > 0 { label += ", " }
      let text = analysis.tree.text(parameter.name) + (parameter.kind == .array ? "[]" : "")
      parameters.append(ParameterInformation(label: [label.utf16.count, label.utf16.count + text.utf16.count]))
      label += text
    }
    label += ")"
    let signature = SignatureInformation(
      label: label, documentation: function.origin == .external ? "extern" : nil, parameters: parameters)
    let help = SignatureHelp(
      signatures: [signature], activeSignature: 0, activeParameter: min(argument, max(0, parameters.count - 1)))
    return help
  }

  /// The name before the innermost unclosed call parenthesis before `offset`, and how many
  /// commas of that call come before `offset`; `nil` outside a call (an item boundary, or
  /// an unclosed `[`, stops the search).
  static func enclosingCall(_ tokens: [Token], before offset: Int, in bytes: [UInt8]) -> (String, Int)? {
    guard var index = tokens.lastIndex(where: { $0.range.end <= offset }) else { return nil }
    var depth = 0
    var commas = 0
    while index >= 0 {
      switch tokens[index].kind {
      case .rightParen, .rightBracket:
        depth += 1
      case .leftBracket:
        if depth == 0 { return nil }
        depth -= 1
      case .leftParen:
        if depth > 0 {
          depth -= 1
        } else if index > 0, tokens[index - 1].kind == .identifier {
          let range = tokens[index - 1].range
          return (String(decoding: bytes[range.start..<range.end], as: UTF8.self), commas)
        } else {
          commas = 0  // a parenthesized expression: its commas are not the call's
        }
      case .comma:
        if depth == 0 { commas += 1 }
      case .keyword(.def), .keyword(.extern), .semicolon:
        return nil
      default:
        break
      }
      index -= 1
    }
    return nil
  }
}
