import KaleidoscopeFrontend

/// What a name in a program stands for: a function (operators included), a global, or a
/// local of one body (its parameters, `var`s and loop variables).
public enum Symbol: Hashable, Sendable {
  case function(FunctionID)
  case global(GlobalID)
  case local(body: Int, LocalID)
}

/// One place a symbol's name is written.
public struct Occurrence: Sendable {
  public var range: SourceRange
  public var symbol: Symbol
  /// Whether this place declares the symbol (a prototype, a parameter, a binding, a loop
  /// variable) rather than uses it.
  public var isDeclaration: Bool
}

/// Every name in a checked program and what it stands for, in source order: what hover, go
/// to definition, references, rename and semantic tokens look things up in. It is built
/// from the checker's own resolutions, so it agrees with the compiler by construction.
public struct SymbolIndex: Sendable {
  public private(set) var occurrences: [Occurrence] = []

  public init(_ program: CheckedProgram) {
    let tree = program.tree
    for item in tree.items {
      switch item {
      case .definition(let definition): declare(definition.prototype, in: program)
      case .external(let prototype), .brokenDefinition(let prototype): declare(prototype, in: program)
      case .expression, .globals: break
      }
    }
    for (index, body) in program.bodies.enumerated() {
      for (local, declaration) in body.locals.enumerated() where declaration.kind == .parameter {
        let range = SourceRange(
          start: declaration.range.start, end: declaration.range.start + tree.text(declaration.name).utf8.count)
        add(range, .local(body: index, LocalID(index: Int32(local))), declaration: true)
      }
      visit(body.body, of: index, in: program)
    }
    occurrences.sort { $0.range.start < $1.range.start }
  }

  private mutating func add(_ range: SourceRange, _ symbol: Symbol, declaration: Bool = false) {
    occurrences.append(Occurrence(range: range, symbol: symbol, isDeclaration: declaration))
  }

  private mutating func declare(_ prototype: Prototype, in program: CheckedProgram) {
    if let function = program.functions.lookup(prototype.name) {
      add(prototype.nameRange, .function(function), declaration: true)
    }
  }

  /// Records the names under `root`, a body's expression, walking with an explicit stack
  /// (bodies may nest as deeply as the parser allows).
  private mutating func visit(_ root: ExprID, of body: Int, in program: CheckedProgram) {
    let tree = program.tree
    var work = [SyntaxNode(.expr(root))]
    while let node = work.popLast() {
      if case .expr(let id) = node.reference { record(id, of: body, in: program) }
      work += tree.children(of: node)
    }
  }

  private mutating func record(_ id: ExprID, of body: Int, in program: CheckedProgram) {
    let tree = program.tree
    switch tree[id] {
    case .variable, .element, .storeElement, .length:
      switch program.reference(of: id) {
      case .local(let local)?: add(tree.range(of: id), .local(body: body, local))
      case .global(let global)?: add(tree.range(of: id), .global(global))
      case nil: break
      }
    case .call, .unary, .binary:
      if let function = program.callee(of: id) { add(tree.range(of: id), .function(function)) }
    case .loop(let index):
      if let variable = tree.loop(index).variable {
        add(variable.range, .local(body: body, program.loopVariable(of: id)), declaration: true)
      }
    case .varIn(let index):
      let varIn = tree.varIn(index)
      for (binding, local) in zip(tree.bindings(varIn.bindings), program.bindingLocals(of: varIn)) {
        add(binding.nameRange, .local(body: body, local), declaration: true)
      }
    case .globalDeclaration(let index):
      for binding in tree.bindings(tree.globalDeclaration(index)) {
        if let global = program.globals.lookup(binding.name) { add(binding.nameRange, .global(global), declaration: true) }
      }
    case .number, .assign, .ifElse, .arrayLiteral, .string, .error:
      break
    }
  }

  /// The occurrence whose name contains `offset` or ends there (a cursor just after a name
  /// is on it).
  public func occurrence(at offset: Int) -> Occurrence? {
    var low = 0
    var high = occurrences.count
    while low < high {
      let middle = (low + high) / 2
      if occurrences[middle].range.end < offset { low = middle + 1 } else { high = middle }
    }
    guard low < occurrences.count, occurrences[low].range.start <= offset else { return nil }
    // A cursor between two adjacent names (`a+b`, after `a`) prefers the one it is inside.
    if low + 1 < occurrences.count, occurrences[low].range.end == offset, occurrences[low + 1].range.start == offset {
      return occurrences[low + 1]
    }
    return occurrences[low]
  }

  /// Every occurrence of `symbol`, in source order.
  public func occurrences(of symbol: Symbol) -> [Occurrence] {
    occurrences.filter { $0.symbol == symbol }
  }
}
