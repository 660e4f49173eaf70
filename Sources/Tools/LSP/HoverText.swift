import KaleidoscopeFrontend

/// The Markdown shown on hover: a symbol's declaration, what it is, where it is declared,
/// and the comment lines written just above a definition.
struct HoverText {
  let analysis: Analysis

  func describe(_ symbol: Symbol) -> String {
    let program = analysis.program
    let document = analysis.document
    switch symbol {
    case .function(let id):
      let function = program.functions[id]
      let keyword = function.origin == .external ? "extern" : "def"
      var text = Self.code("\(keyword) \(analysis.tree.describe(function.prototype))")
      switch function.prototype.kind {
      case .function: break
      case .unaryOperator: text += "Unary operator.\n\n"
      case .binaryOperator(_, let precedence): text += "Binary operator: precedence \(precedence), left-associative.\n\n"
      }
      let line = document.position(of: function.prototype.nameRange.start).line
      let comment = documentation(above: line)
      if !comment.isEmpty { text += comment + "\n\n" }
      text +=
        function.origin == .external ? "Provided by the host; declared on line \(line + 1)." : "Defined on line \(line + 1)."
      return text
    case .global(let id):
      let global = program.globals[id]
      let line = document.position(of: global.range.start).line
      let shape = global.kind == .array ? "[]" : ""
      return Self.code("var \(global.spelling)\(shape)")
        + "Global \(global.kind == .array ? "array" : "number"), declared on line \(line + 1)."
    case .local(let body, let local):
      let checked = program.bodies[body]
      let declared = checked.locals[Int(local.index)]
      let name = analysis.tree.text(declared.name) + (declared.valueKind == .array ? "[]" : "")
      let owner = checked.function.map { "`\(program.functions[$0].spelling)`" } ?? "the top-level expression"
      let role =
        switch declared.kind {
        case .parameter: "Parameter of"
        case .variable: "Variable (`var`) in"
        case .loopVariable: "Loop variable in"
        }
      let line = document.position(of: declared.range.start).line
      return Self.code(name) + "\(role) \(owner), declared on line \(line + 1)."
    }
  }

  /// A built-in binary operator under `offset`: its precedence and associativity, then
  /// what it means and its tutorial chapter, as the playground says it.
  func describeBuiltinOperator(at offset: Int) -> (String, SourceRange)? {
    guard let token = analysis.token(at: offset), token.kind == .operatorChar,
      let op = analysis.document.bytes[token.range.start..<token.range.end].first,
      OperatorTable.isBuiltinBinary(op), let precedence = OperatorTable.standard.precedence(of: op)
    else { return nil }
    let meaning = OperatorTable.documentation(ofBuiltin: op).map { "\n\n" + $0.markdown } ?? ""
    let spelling = String(UnicodeScalar(op))
    if op == UInt8(ascii: "=") {
      return ("Assignment `=`: precedence \(precedence), right-associative; built in.\(meaning)", token.range)
    }
    return ("Built-in binary operator `\(spelling)`: precedence \(precedence), left-associative.\(meaning)", token.range)
  }

  /// A keyword under `offset`: what it means and the tutorial chapter that introduces it.
  func describeKeyword(at offset: Int) -> (String, SourceRange)? {
    guard let token = analysis.token(at: offset), case .keyword(let keyword) = token.kind else { return nil }
    return (keyword.documentation.markdown, token.range)
  }

  /// The comment lines directly above line `line` (no empty line between), without `#`.
  func documentation(above line: Int) -> String {
    var lines: [String] = []
    var current = line - 1
    while current >= 0 {
      let text = String(decoding: analysis.document.line(current), as: UTF8.self).trimmingSpaces
      guard text.hasPrefix("#") else { break }
      lines.append(String(text.dropFirst()).trimmingSpaces)
      current -= 1
    }
    return lines.reversed().joined(separator: "\n")
  }

  static func code(_ text: String) -> String { "```kaleidoscope\n\(text)\n```\n" }
}

extension String {
  /// Without spaces, tabs and carriage returns at either end.
  var trimmingSpaces: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
    return String(self[first...last])
  }
}
