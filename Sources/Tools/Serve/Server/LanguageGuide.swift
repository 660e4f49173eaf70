import KaleidoscopeFrontend

/// `GET /api/language`: what the page shows on hovering a keyword, an operator or a tree
/// node, from the front end's own documentation (the language server says the same).
struct LanguageGuide: Encodable, Sendable {
  /// What the page shows for one keyword, operator or node: a summary and the tutorial chapter that
  /// explains it.
  struct Entry: Encodable, Sendable {
    var summary: String
    var chapter: Int
    var title: String
    var url: String

    init(_ documentation: LanguageDocumentation) {
      summary = documentation.summary
      chapter = documentation.chapter.number
      title = documentation.chapter.title
      url = documentation.chapter.url
    }
  }

  var keywords: [String: Entry]
  var operators: [String: Entry]
  var nodes: [String: Entry]

  static let shared = LanguageGuide(
    keywords: Dictionary(uniqueKeysWithValues: Keyword.allCases.map { ($0.spelling, Entry($0.documentation)) }),
    operators: Dictionary(
      uniqueKeysWithValues: "+-*/<=".utf8.compactMap { op in
        OperatorTable.documentation(ofBuiltin: op).map { (String(UnicodeScalar(op)), Entry($0)) }
      }),
    nodes: SyntaxDocumentation.nodeKinds.mapValues(Entry.init))
}
