import KaleidoscopeFrontend

/// The kinds of token the server marks, in the order of the legend it announces.
enum SemanticTokenType: Int, CaseIterable {
  case function, parameter, variable, `operator`, keyword, number, string, comment

  var name: String { "\(self)" }
}

/// What sets tokens of one kind apart: `global` and `array` variables, operators and
/// functions the program defines (`userDefined`), host functions (`defaultLibrary`), and
/// the place a name is declared.
enum SemanticTokenModifier: Int, CaseIterable {
  case declaration, global, array, userDefined, defaultLibrary

  var name: String { "\(self)" }
  var bit: Int { 1 << rawValue }
}

/// `textDocument/semanticTokens/full`: every token of the document with its kind, from the
/// lexer and the symbol index, so that highlighting tells a parameter from a local, a global
/// from an array, and a user-defined operator from a built-in one.
struct SemanticTokenEncoder {
  let analysis: Analysis
  private var data: [Int] = []
  private var previous = Position(line: 0, character: 0)

  init(_ analysis: Analysis) {
    self.analysis = analysis
  }

  mutating func encode() -> [Int] {
    let document = analysis.document
    var occurrences: [Int: Occurrence] = [:]
    for occurrence in analysis.index.occurrences { occurrences[occurrence.range.start] = occurrence }
    var previousEnd = 0
    for token in Lexer.tokenize(analysis.file) {
      for comment in Self.comments(in: document.bytes, from: previousEnd, to: token.range.start) {
        add(comment, .comment)
      }
      previousEnd = token.range.end
      switch token.kind {
      case .keyword: add(token.range, .keyword)
      case .number: add(token.range, .number)
      case .string: add(token.range, .string)
      case .identifier, .operatorChar:
        if let occurrence = occurrences[token.range.start] {
          classify(occurrence, token.range)
        } else if token.kind == .operatorChar {
          add(token.range, .operator)
        }
      default: break
      }
    }
    return data
  }

  private mutating func classify(_ occurrence: Occurrence, _ range: SourceRange) {
    let declaration = occurrence.isDeclaration ? SemanticTokenModifier.declaration.bit : 0
    let program = analysis.program
    switch occurrence.symbol {
    case .function(let id):
      let function = program.functions[id]
      let isOperator = function.prototype.kind != .function
      let origin = function.origin == .external ? SemanticTokenModifier.defaultLibrary.bit : SemanticTokenModifier.userDefined.bit
      add(range, isOperator ? .operator : .function, modifiers: origin | declaration)
    case .global(let id):
      let array = program.globals[id].kind == .array ? SemanticTokenModifier.array.bit : 0
      add(range, .variable, modifiers: SemanticTokenModifier.global.bit | array | declaration)
    case .local(let body, let local):
      let declared = program.bodies[body].locals[Int(local.index)]
      let array = declared.valueKind == .array ? SemanticTokenModifier.array.bit : 0
      add(range, declared.kind == .parameter ? .parameter : .variable, modifiers: array | declaration)
    }
  }

  /// Appends a token, relative to the one before (the protocol's encoding). Tokens that
  /// span lines (a string with a line break in it) are left out.
  private mutating func add(_ range: SourceRange, _ type: SemanticTokenType, modifiers: Int = 0) {
    let document = analysis.document
    let start = document.position(of: range.start)
    let end = document.position(of: range.end)
    guard end.line == start.line, end.character > start.character else { return }
    let deltaLine = start.line - previous.line
    let deltaStart = deltaLine == 0 ? start.character - previous.character : start.character
    data += [deltaLine, deltaStart, end.character - start.character, type.rawValue, modifiers]
    previous = start
  }

  /// The comments between two tokens (`#` to the end of the line).
  static func comments(in bytes: [UInt8], from start: Int, to end: Int) -> [SourceRange] {
    var comments: [SourceRange] = []
    var position = start
    while position < end {
      if bytes[position] == UInt8(ascii: "#") {
        let commentStart = position
        while position < end && bytes[position] != UInt8(ascii: "\n") && bytes[position] != UInt8(ascii: "\r") {
          position += 1
        }
        comments.append(SourceRange(start: commentStart, end: position))
      } else {
        position += 1
      }
    }
    return comments
  }
}

extension LanguageServer {
  func semanticTokens(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: DocumentParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.null }
    var encoder = SemanticTokenEncoder(analysis)
    return SemanticTokens(data: encoder.encode())
  }
}
