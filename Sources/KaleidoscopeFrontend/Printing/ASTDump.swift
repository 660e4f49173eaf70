/// The text of `kaleidoscope ast`: an indented dump in the style of `clang -ast-dump`, one
/// node per line with its kind, details and `<line:col>`.
///
///     Function fib(n) <1:5>
///     `-If <1:12>
///       |-cond: Binary '<' <1:17>
///
/// The dump walks an explicit stack, so no input is too deep to print; below `maxDepth`
/// levels it elides the rest of a branch, as a line would otherwise be mostly indentation.
public enum ASTDump {
  public static let maxDepth = 200

  public static func render(_ tree: SyntaxTree) -> String {
    var out = ""
    for index in tree.items.indices {
      render(SyntaxNode(.item(index)), in: tree, into: &out)
    }
    return out
  }

  private static func render(_ root: SyntaxNode, in tree: SyntaxTree, into out: inout String) {
    // (node, prefix for its own line, prefix for its children's lines, depth)
    var stack: [(SyntaxNode, String, String, Int)] = [(root, "", "", 0)]
    while let (node, linePrefix, childPrefix, depth) = stack.popLast() {
      out += linePrefix + (node.role.map { "\($0): " } ?? "") + label(of: node, in: tree) + "\n"
      let children = tree.children(of: node)
      if children.isEmpty { continue }
      if depth >= maxDepth {
        out += childPrefix + "`-... (deeper levels not shown)\n"
        continue
      }
      for (offset, child) in children.enumerated().reversed() {
        let isLast = offset == children.count - 1
        stack.append((child, childPrefix + (isLast ? "`-" : "|-"), childPrefix + (isLast ? "  " : "| "), depth + 1))
      }
    }
  }

  static func label(of node: SyntaxNode, in tree: SyntaxTree) -> String {
    switch node.reference {
    case .item(let index):
      switch tree.items[index] {
      case .definition(let definition):
        return "Function \(tree.describe(definition.prototype)) \(at(definition.range, tree))"
      case .brokenDefinition(let prototype):
        return "Function \(tree.describe(prototype)) \(at(prototype.range, tree)) (body has errors)"
      case .external(let prototype):
        return "Extern \(tree.describe(prototype)) \(at(prototype.range, tree))"
      case .expression(let id):
        return "TopLevelExpr \(at(tree.range(of: id), tree))"
      case .globals(let id):
        return "Globals \(at(tree.range(of: id), tree))"
      }
    case .binding(let binding):
      let array = binding.kind == .array ? "[]" : ""
      return "Var \(tree.text(binding.name))\(array) \(at(binding.nameRange, tree))"
    case .loopVariable(let loop):
      return "LoopVar \(tree.text(loop.variable)) \(at(loop.variableRange, tree))"
    case .expr(let id):
      return "\(exprLabel(id, in: tree)) \(at(tree.range(of: id), tree))"
    }
  }

  private static func exprLabel(_ id: ExprID, in tree: SyntaxTree) -> String {
    switch tree[id] {
    case .number: "Number \(tree.spelling(of: id))"
    case .variable(let name): "Variable \(tree.text(name))"
    case .unary(let op, _): "Unary '\(UnicodeScalar(op))'"
    case .binary(let op, _, _): "Binary '\(UnicodeScalar(op))'"
    case .assign: "Assign '='"
    case .call(let callee, _): "Call \(tree.text(callee))"
    case .ifElse: "If"
    case .loop(let index): capitalized(tree.loop(index).keyword.spelling)
    case .varIn: "VarIn"
    case .element(let array, _): "Element \(tree.text(array))"
    case .storeElement(let array, _, _): "StoreElement \(tree.text(array))"
    case .length(let array): "Length \(tree.text(array))"
    case .arrayLiteral: "ArrayLiteral"
    case .string: "String \(tree.spelling(of: id))"
    case .globalDeclaration: "GlobalVar"
    case .error: "Error"
    }
  }

  /// `For` for `for`: the dump names nodes with a capital.
  private static func capitalized(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  private static func at(_ range: SourceRange, _ tree: SyntaxTree) -> String {
    "<\(tree.file.location(of: range.start))>"
  }
}
