/// A node of the syntax tree as the walks that only visit it see it: an item, an expression,
/// a `var` binding or a loop variable, with the role it plays in its parent (`cond`, `then`,
/// `body`, ...).
public struct SyntaxNode: Sendable {
  /// What a node stands for.
  public enum Reference: Sendable {
    case item(Int)
    case expr(ExprID)
    case binding(VarBinding)
    case loopVariable(ForLoop)
  }

  public let reference: Reference
  public let role: String?

  public init(_ reference: Reference, role: String? = nil) {
    self.reference = reference
    self.role = role
  }
}

extension SyntaxTree {
  /// The spelling of a prototype: `fib(n)`, `unary!(v)`, `binary| 5 (a b)`.
  public func describe(_ prototype: Prototype) -> String {
    prototype.spelling(names: names)
  }

  /// The source text of a node's main token (a literal as written, a name, an operator).
  public func spelling(of id: ExprID) -> String { file.text(in: range(of: id)) }

  /// The node's children in evaluation order, with their roles: the one walk over the tree
  /// for every pass that only visits (the printers, the REPL's loop detection). A new kind of
  /// node must say here what its children are; the `switch` makes the compiler ask.
  public func children(of node: SyntaxNode) -> [SyntaxNode] {
    switch node.reference {
    case .item(let index):
      switch items[index] {
      case .definition(let definition): return [SyntaxNode(.expr(definition.body))]
      case .expression(let id), .globals(let id): return [SyntaxNode(.expr(id))]
      case .external, .brokenDefinition: return []
      }
    case .binding(let binding):
      switch binding.value {
      case .number(let initializer): return initializer.map { [SyntaxNode(.expr($0))] } ?? []
      case .zeros(let count): return [SyntaxNode(.expr(count), role: "size")]
      case .elements(let elements): return [SyntaxNode(.expr(elements))]
      }
    case .loopVariable(let loop):
      return [SyntaxNode(.expr(loop.start))]
    case .expr(let id):
      return children(of: id)
    }
  }

  private func children(of id: ExprID) -> [SyntaxNode] {
    switch self[id] {
    case .number, .variable, .length, .string, .error:
      return []
    case .unary(_, let operand):
      return [SyntaxNode(.expr(operand))]
    case .binary(_, let lhs, let rhs):
      return [SyntaxNode(.expr(lhs)), SyntaxNode(.expr(rhs))]
    case .assign(let target, let value):
      return [SyntaxNode(.expr(target)), SyntaxNode(.expr(value))]
    case .call(_, let list), .arrayLiteral(let list):
      return arguments(list).map { SyntaxNode(.expr($0)) }
    case .element(_, let index):
      return [SyntaxNode(.expr(index), role: "index")]
    case .storeElement(_, let index, let value):
      return [SyntaxNode(.expr(index), role: "index"), SyntaxNode(.expr(value), role: "value")]
    case .ifElse(let condition, let then, let otherwise):
      return [
        SyntaxNode(.expr(condition), role: "cond"), SyntaxNode(.expr(then), role: "then"),
        SyntaxNode(.expr(otherwise), role: "else"),
      ]
    case .loop(let index):
      switch loop(index) {
      case .forLoop(let loop):
        var nodes = [SyntaxNode(.loopVariable(loop)), SyntaxNode(.expr(loop.end), role: "end")]
        if let step = loop.step { nodes.append(SyntaxNode(.expr(step), role: "step")) }
        nodes.append(SyntaxNode(.expr(loop.body), role: "body"))
        return nodes
      case .whileLoop(let loop):
        return [SyntaxNode(.expr(loop.condition), role: "cond"), SyntaxNode(.expr(loop.body), role: "body")]
      }
    case .varIn(let index):
      let varIn = varIn(index)
      return bindings(varIn.bindings).map { SyntaxNode(.binding($0)) } + [SyntaxNode(.expr(varIn.body), role: "body")]
    case .globalDeclaration(let index):
      return bindings(globalDeclaration(index)).map { SyntaxNode(.binding($0)) }
    }
  }
}

extension SyntaxTree {
  /// Whether `predicate` holds for `root` or any node under it. Walks an explicit stack, so
  /// no tree is too deep.
  public func contains(_ root: SyntaxNode, where predicate: (SyntaxNode) -> Bool) -> Bool {
    var work = [root]
    while let node = work.popLast() {
      if predicate(node) { return true }
      work += children(of: node)
    }
    return false
  }

  /// Whether the expression `node` is `root` or lies under it.
  public func contains(_ node: ExprID, under root: ExprID) -> Bool {
    contains(SyntaxNode(.expr(root))) { candidate in
      guard case .expr(let id) = candidate.reference else { return false }
      return id == node
    }
  }
}

extension Prototype {
  /// How the prototype is written, with names spelled by `names`: `fib(n)`, `unary!(v)`,
  /// `binary| 5 (a b)`.
  public func spelling(names: NameTable) -> String {
    let parameters = self.parameters.map { names[$0.name] + ($0.kind == .array ? "[]" : "") }.joined(separator: " ")
    switch kind {
    case .function, .unaryOperator:
      return "\(names[name])(\(parameters))"
    case .binaryOperator(_, let precedence):
      return "\(names[name]) \(precedence) (\(parameters))"
    }
  }
}
