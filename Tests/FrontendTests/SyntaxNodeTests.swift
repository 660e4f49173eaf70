import Testing

@testable import KaleidoscopeFrontend

/// The one child walk (`SyntaxTree.children(of:)`) that printers and the REPL use.
@Suite("Syntax nodes")
struct SyntaxNodeTests {
  /// The roles of the children of the first item's expression (nil for a plain child).
  static func childRoles(_ text: String) -> [String?] {
    let tree = LargeStack.run { Parser.parse(SourceFile(name: "t", text: text)) }.tree
    guard case .expression(let root) = tree.items[0] else { return [] }
    return tree.children(of: SyntaxNode(.expr(root))).map(\.role)
  }

  @Test(
    arguments: [
      ("1", []), ("x", []), ("-x", [nil]), ("a + b", [nil, nil]), ("a = b", [nil, nil]), ("f(1, 2, 3)", [nil, nil, nil]),
      ("if a then b else c", ["cond", "then", "else"]), ("for i = 0, i < 3, 1 in i", [nil, "end", "step", "body"]),
      ("for i = 0, 1 in i", [nil, "end", "body"]), ("while i in i", ["cond", "body"]),
      ("var a = 1, b in a", [nil, nil, "body"]),
    ] as [(String, [String?])])
  func children(text: String, roles: [String?]) {
    #expect(Self.childRoles(text) == roles)
  }

  @Test func containsFindsANestedNode() {
    let tree = LargeStack.run { Parser.parse(SourceFile(name: "t", text: "f(1, if x then (for i = 0, 1 in 0) else 2)\nf(1)")) }
      .tree
    let isLoop = { (node: SyntaxNode) -> Bool in
      guard case .expr(let id) = node.reference, case .loop = tree[id] else { return false }
      return true
    }
    #expect(tree.contains(SyntaxNode(.item(0)), where: isLoop))
    #expect(!tree.contains(SyntaxNode(.item(1)), where: isLoop))
  }
}
