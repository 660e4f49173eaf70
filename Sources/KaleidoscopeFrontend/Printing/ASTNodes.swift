/// A uniform view of the syntax tree for printers: each node has a kind, an optional detail
/// (name, operator, literal) and ordered children, each child possibly with a role
/// (`cond`, `then`, `body`, ...).
struct ASTNode {
  /// What a node stands for.
  enum Reference {
    case item(Int)
    case expr(ExprID)
    case binding(VarBinding)
    case loopVariable(ForLoop)
  }

  let reference: Reference
  let role: String?

  init(_ reference: Reference, role: String? = nil) {
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
  func spelling(of id: ExprID) -> String { file.text(in: range(of: id)) }

  /// The node's children in evaluation order, with their roles.
  func children(of node: ASTNode) -> [ASTNode] {
    switch node.reference {
    case .item(let index):
      switch items[index] {
      case .definition(let definition): return [ASTNode(.expr(definition.body))]
      case .expression(let id): return [ASTNode(.expr(id))]
      case .external, .brokenDefinition: return []
      }
    case .binding(let binding):
      return binding.initializer.map { [ASTNode(.expr($0))] } ?? []
    case .loopVariable(let loop):
      return [ASTNode(.expr(loop.start))]
    case .expr(let id):
      return children(of: id)
    }
  }

  private func children(of id: ExprID) -> [ASTNode] {
    switch self[id] {
    case .number, .variable, .error:
      return []
    case .unary(_, let operand):
      return [ASTNode(.expr(operand))]
    case .binary(_, let lhs, let rhs):
      return [ASTNode(.expr(lhs)), ASTNode(.expr(rhs))]
    case .assign(let target, let value):
      return [ASTNode(.expr(target)), ASTNode(.expr(value))]
    case .call(_, let list):
      return arguments(list).map { ASTNode(.expr($0)) }
    case .ifElse(let condition, let then, let otherwise):
      return [
        ASTNode(.expr(condition), role: "cond"), ASTNode(.expr(then), role: "then"),
        ASTNode(.expr(otherwise), role: "else"),
      ]
    case .forLoop(let index):
      let loop = forLoop(index)
      var nodes = [ASTNode(.loopVariable(loop)), ASTNode(.expr(loop.end), role: "end")]
      if let step = loop.step { nodes.append(ASTNode(.expr(step), role: "step")) }
      nodes.append(ASTNode(.expr(loop.body), role: "body"))
      return nodes
    case .varIn(let index):
      let varIn = varIn(index)
      return bindings(of: varIn).map { ASTNode(.binding($0)) } + [ASTNode(.expr(varIn.body), role: "body")]
    }
  }
}

extension Prototype {
  /// How the prototype is written, with names spelled by `names`: `fib(n)`, `unary!(v)`,
  /// `binary| 5 (a b)`.
  public func spelling(names: NameTable) -> String {
    let parameters = self.parameters.map { names[$0.name] }.joined(separator: " ")
    switch kind {
    case .function, .unaryOperator:
      return "\(names[name])(\(parameters))"
    case .binaryOperator(_, let precedence):
      return "\(names[name]) \(precedence) (\(parameters))"
    }
  }
}
