/// Identifies an expression node in a `SyntaxTree`.
public struct ExprID: Hashable, Sendable {
  public let index: Int32

  public init(index: Int32) {
    self.index = index
  }
}

/// A contiguous run of expression IDs in the tree's list storage (call arguments).
public struct ExprList: Hashable, Sendable {
  public let start: Int32
  public let count: Int32
}

/// An expression node. Children are `ExprID`s into the same tree, so the tree is a flat
/// array: building it allocates no node objects, and freeing it never recurses, however deep
/// the program nests. Constructs with more parts keep them in side tables (`ForLoop`, `VarIn`).
public enum Expr: Sendable, Equatable {
  /// A numeric literal.
  case number(Double)
  /// A use of a parameter, `var` or loop variable.
  case variable(Name)
  /// A prefix operator: the built-in `-` or a user-defined `unary` operator.
  case unary(op: UInt8, operand: ExprID)
  /// An infix operator: built-in or user-defined `binary`. `=` is `.assign` instead.
  case binary(op: UInt8, lhs: ExprID, rhs: ExprID)
  /// `target = value`; sema checks that the target is a variable.
  case assign(target: ExprID, value: ExprID)
  /// `callee(arguments...)`.
  case call(callee: Name, arguments: ExprList)
  /// `if condition then thenBranch else elseBranch`.
  case ifElse(condition: ExprID, then: ExprID, else: ExprID)
  /// `for variable = start, end, step in body`; the parts are in `SyntaxTree.forLoop(_:)`.
  case forLoop(Int32)
  /// `var a = 1, b in body`; the parts are in `SyntaxTree.varIn(_:)`.
  case varIn(Int32)
  /// Where a lexical error stood; the error was already reported.
  case error
}

/// The parts of a `for` loop.
public struct ForLoop: Sendable, Equatable {
  public var variable: Name
  public var variableRange: SourceRange
  public var start: ExprID
  public var end: ExprID
  public var step: ExprID?
  public var body: ExprID
}

/// The parts of a `var ... in` expression.
public struct VarIn: Sendable, Equatable {
  public var bindings: [VarBinding]
  public var body: ExprID
}

/// One `name = initializer` of a `var ... in`.
public struct VarBinding: Sendable, Equatable {
  public var name: Name
  public var nameRange: SourceRange
  /// `nil` when absent: the variable starts at 0.0.
  public var initializer: ExprID?
}

/// A function parameter.
public struct Parameter: Sendable, Equatable {
  public var name: Name
  public var range: SourceRange
}

/// The signature of a function or operator: `fib(n)`, `unary!(v)`, `binary| 5 (a b)`.
public struct Prototype: Sendable, Equatable {
  /// What a prototype defines.
  public enum Kind: Sendable, Equatable {
    case function
    case unaryOperator(UInt8)
    case binaryOperator(UInt8, precedence: Int)
  }

  public var kind: Kind
  /// The function's symbol: `fib`, `unary!`, `binary|`.
  public var name: Name
  /// Where the name (or the operator character) is written.
  public var nameRange: SourceRange
  public var parameters: [Parameter]
  /// From the name (or the `unary`/`binary` keyword) to the closing parenthesis.
  public var range: SourceRange

  public var arity: Int { parameters.count }
}

/// `def prototype body`.
public struct FunctionDefinition: Sendable, Equatable {
  public var prototype: Prototype
  public var body: ExprID
  /// From `def` to the end of the body.
  public var range: SourceRange
}

/// A top-level item of a program.
public enum Item: Sendable, Equatable {
  case definition(FunctionDefinition)
  case external(Prototype)
  /// A top-level expression: evaluated, its value printed by `run`.
  case expression(ExprID)
  /// A definition whose body did not parse. Its prototype still declares the function, so
  /// calls to it elsewhere are not reported as unknown.
  case brokenDefinition(Prototype)
}

/// A parsed source file: its items and the arena holding their expressions.
public struct SyntaxTree: Sendable {
  public let file: SourceFile
  public internal(set) var items: [Item] = []
  public internal(set) var names: NameTable

  private var nodes: [Expr] = []
  /// The range of each node's main token: the literal, the name, the operator character, or
  /// the keyword that starts it. Diagnostics and debug locations point there.
  private var nodeRanges: [PackedRange] = []
  private var lists: [ExprID] = []
  private var forLoops: [ForLoop] = []
  private var varIns: [VarIn] = []

  public init(file: SourceFile, names: NameTable = NameTable()) {
    self.file = file
    self.names = names
  }

  /// The number of expression nodes; IDs run from 0 to `exprCount - 1`.
  public var exprCount: Int { nodes.count }

  public subscript(id: ExprID) -> Expr { nodes[Int(id.index)] }

  /// The range of the node's main token.
  public func range(of id: ExprID) -> SourceRange { nodeRanges[Int(id.index)].range }

  public func arguments(_ list: ExprList) -> ArraySlice<ExprID> {
    lists[Int(list.start)..<Int(list.start + list.count)]
  }

  public func forLoop(_ index: Int32) -> ForLoop { forLoops[Int(index)] }
  public func varIn(_ index: Int32) -> VarIn { varIns[Int(index)] }

  /// The spelling of a name.
  public func text(_ name: Name) -> String { names[name] }

  // MARK: Building (used by the parser)

  mutating func add(_ expr: Expr, at range: SourceRange) -> ExprID {
    nodes.append(expr)
    nodeRanges.append(PackedRange(range))
    return ExprID(index: Int32(nodes.count - 1))
  }

  mutating func addList(_ ids: [ExprID]) -> ExprList {
    let start = Int32(lists.count)
    lists.append(contentsOf: ids)
    return ExprList(start: start, count: Int32(ids.count))
  }

  mutating func addForLoop(_ loop: ForLoop, at range: SourceRange) -> ExprID {
    forLoops.append(loop)
    return add(.forLoop(Int32(forLoops.count - 1)), at: range)
  }

  mutating func addVarIn(_ varIn: VarIn, at range: SourceRange) -> ExprID {
    varIns.append(varIn)
    return add(.varIn(Int32(varIns.count - 1)), at: range)
  }

  mutating func reserveCapacity(sourceBytes: Int) {
    // About one node per four bytes of typical source.
    nodes.reserveCapacity(sourceBytes / 4)
    nodeRanges.reserveCapacity(sourceBytes / 4)
  }
}

/// A source range stored in 8 bytes; source files are limited to 2 GiB.
struct PackedRange: Sendable {
  var start: UInt32
  var end: UInt32

  init(_ range: SourceRange) {
    start = UInt32(truncatingIfNeeded: range.start)
    end = UInt32(truncatingIfNeeded: range.end)
  }

  var range: SourceRange { SourceRange(start: Int(start), end: Int(end)) }
}

extension SyntaxTree {
  /// The left spine of a chain of binary operators, outermost first: for `a + b - c` the
  /// nodes `-` then `+`. Passes walk long chains (`1 + 1 + ... + 1`) with this instead of
  /// recursing down the left side, so a 200,000-term chain needs no deep stack.
  public func leftSpine(of id: ExprID) -> [ExprID] {
    var spine: [ExprID] = []
    var current = id
    while case .binary(_, let lhs, _) = self[current] {
      spine.append(current)
      current = lhs
    }
    return spine
  }
}
