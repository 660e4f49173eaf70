/// Identifies a local variable of one body: its parameters come first (0, 1, ...), then each
/// `var` and loop variable in the order they appear.
public struct LocalID: Hashable, Sendable {
  public let index: Int32

  public init(index: Int32) {
    self.index = index
  }
}

/// A parameter, `var` variable or loop variable of a body.
public struct Local: Sendable, Equatable {
  /// How a local came to be.
  public enum Kind: Sendable, Equatable {
    case parameter
    case variable
    case loopVariable
  }

  public var name: Name
  public var kind: Kind
  /// Whether it holds a number or an array.
  public var valueKind: NameKind
  /// Where it is declared.
  public var range: SourceRange
}

/// What a variable's name refers to: a local of the body, or a global.
public enum VariableReference: Sendable, Equatable {
  case local(LocalID)
  case global(GlobalID)
}

/// Code to compile: a function definition or a top-level expression, with its locals resolved.
public struct CheckedBody: Sendable {
  /// What a body is.
  public enum Kind: Sendable, Equatable {
    /// A `def`, defining the function `FunctionID`.
    case function(FunctionID)
    /// The `index`-th top-level expression of the file (0-based); its value is printed.
    case topLevel(index: Int)
    /// The `index`-th declaration of globals (0-based): runs its initialisers.
    case globalDeclaration(index: Int)
  }

  public var kind: Kind
  /// The root expression (for a declaration of globals, its `.globalDeclaration` node).
  public var body: ExprID
  /// Parameters first, then every `var` and loop variable.
  public var locals: [Local]
  /// The functions this body calls (including through operators), without repeats.
  public var callees: [FunctionID]
  /// The body's loops of every kind, in source order (a loop before the loops inside it).
  public var loops: [ExprID]
  /// Where the body's text is: the whole `def`, or the top-level expression's main token.
  public var range: SourceRange

  public var function: FunctionID? {
    if case .function(let id) = kind { return id }
    return nil
  }

  /// Whether the body has a loop of any kind.
  public var hasLoop: Bool { !loops.isEmpty }
}

/// A program that passed semantic analysis: the syntax tree, the functions it knows, and what
/// every name in it refers to. The back end and the interpreter need nothing else.
public struct CheckedProgram: Sendable {
  public let tree: SyntaxTree
  public let functions: FunctionTable
  public let globals: GlobalTable
  /// Definitions and top-level expressions, in source order.
  public let bodies: [CheckedBody]
  /// Per expression: the variable a `.variable`, `.element`, `.storeElement` or `.length`
  /// refers to (an assignment's is its target's) (a local's index, or `-2 - index` for a global), the loop variable of
  /// a `for` loop, or the function a `.call` or user-defined operator calls; -1 where
  /// nothing is referred to (built-in operators, literals).
  @usableFromInline let resolutions: [Int32]
  /// The local each `var` binding declares, by its index in the tree's binding table.
  @usableFromInline let bindingLocals: [LocalID]

  public var file: SourceFile { tree.file }

  /// The function spelled `name` (an operator's spelling is `binary+`, `unary!`), if any.
  public func function(named name: String) -> FunctionID? {
    tree.names.lookup(name).flatMap(functions.lookup)
  }

  /// The global spelled `name`, if any.
  public func global(named name: String) -> GlobalID? {
    tree.names.lookup(name).flatMap(globals.lookup)
  }

  /// What the name of a `.variable`, `.element`, `.storeElement` or `.length` node refers to
  /// (for an assignment, ask about its target).
  @inlinable
  public func variable(of id: ExprID) -> VariableReference {
    let value = resolutions[Int(id.index)]
    return value >= 0 ? .local(LocalID(index: value)) : .global(GlobalID(index: -2 - value))
  }

  /// What the name of a `.variable`, `.element`, `.storeElement` or `.length` node refers
  /// to, or `nil` when it names nothing (the checker reported that).
  public func reference(of id: ExprID) -> VariableReference? {
    resolutions[Int(id.index)] == -1 ? nil : variable(of: id)
  }

  /// How `resolutions` stores a variable reference.
  static func encode(_ reference: VariableReference) -> Int32 {
    switch reference {
    case .local(let local): local.index
    case .global(let global): -2 - global.index
    }
  }

  /// The loop variable of a `.loop` node whose loop has one (`Loop.variable`).
  @inlinable
  public func loopVariable(of id: ExprID) -> LocalID {
    LocalID(index: resolutions[Int(id.index)])
  }

  /// The innermost loop of `body` around the expression `node` (not `node` itself), if any.
  public func loop(around node: ExprID, in body: CheckedBody) -> ExprID? {
    body.loops.last { $0 != node && tree.contains(node, under: $0) }
  }

  /// The locals a `var ... in`'s bindings declare, in order (parallel to
  /// `tree.bindings(of:)`).
  @inlinable
  public func bindingLocals(of varIn: VarIn) -> ArraySlice<LocalID> {
    bindingLocals[varIn.bindings.indices]
  }

  /// The function a call or user-defined operator node calls; `nil` for a built-in operator.
  @inlinable
  public func callee(of id: ExprID) -> FunctionID? {
    let value = resolutions[Int(id.index)]
    return value < 0 ? nil : FunctionID(index: value)
  }

  /// The body that defines a function, if this program defines it.
  public func definition(of function: FunctionID) -> CheckedBody? {
    bodies.first { $0.function == function }
  }

  /// The bodies reachable from the top-level expressions through calls, top-level
  /// expressions included, in source order: what running the program can execute.
  public var reachableBodies: [CheckedBody] {
    var definitionIndex: [FunctionID: Int] = [:]
    for (index, body) in bodies.enumerated() {
      if let function = body.function { definitionIndex[function] = index }
    }
    var reached = [Bool](repeating: false, count: bodies.count)
    var work: [Int] = []
    for (index, body) in bodies.enumerated() where body.function == nil {
      reached[index] = true
      work.append(index)
    }
    while let index = work.popLast() {
      for callee in bodies[index].callees {
        if let target = definitionIndex[callee], !reached[target] {
          reached[target] = true
          work.append(target)
        }
      }
    }
    return bodies.indices.filter { reached[$0] }.map { bodies[$0] }
  }

  /// What running the program executes, in order: the top-level expressions and the
  /// declarations of globals.
  public var entryBodies: [CheckedBody] {
    bodies.filter { $0.function == nil }
  }
}
