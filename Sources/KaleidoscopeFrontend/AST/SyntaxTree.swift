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

/// The expressions of an `ExprList`, read from the tree's list storage without copying.
public struct ExprIDs: RandomAccessCollection, Sendable {
  let storage: ArraySlice<Int32>

  public var startIndex: Int { storage.startIndex }
  public var endIndex: Int { storage.endIndex }
  public subscript(position: Int) -> ExprID { ExprID(index: storage[position]) }
}

/// An expression node. Children are `ExprID`s into the same tree, so the tree is a flat
/// array: building it allocates no node objects, and freeing it never recurses, however deep
/// the program nests. Constructs with more parts keep them in side tables (`ForLoop`, `VarIn`).
public enum Expr: Sendable, Equatable {
  /// A numeric literal.
  case number(Double)
  /// A use of a parameter, `var`, loop variable or global, by name.
  case variable(Name)
  /// A prefix operator: the built-in `-` or a user-defined `unary` operator.
  case unary(op: UInt8, operand: ExprID)
  /// An infix operator: built-in or user-defined `binary`. `=` is `.assign` instead.
  case binary(op: UInt8, lhs: ExprID, rhs: ExprID)
  /// `target = value`; sema checks that the target is a number variable.
  case assign(target: ExprID, value: ExprID)
  /// `callee(arguments...)`.
  case call(callee: Name, arguments: ExprList)
  /// `if condition then thenBranch else elseBranch`.
  case ifElse(condition: ExprID, then: ExprID, else: ExprID)
  /// `for variable = start, end, step in body`; the parts are in `SyntaxTree.forLoop(_:)`.
  case forLoop(Int32)
  /// `var a = 1, b[n] in body`; the parts are in `SyntaxTree.varIn(_:)`.
  case varIn(Int32)
  /// `array[index]`, an element's value.
  case element(array: Name, index: ExprID)
  /// `array[index] = value`.
  case storeElement(array: Name, index: ExprID, value: ExprID)
  /// `len(array)`.
  case length(array: Name)
  /// `[e1, e2, ...]`: a fresh array of those values.
  case arrayLiteral(elements: ExprList)
  /// `"text"`: a fresh array of the text's bytes, in `SyntaxTree.string(_:)`.
  case string(Int32)
  /// `var x = 1, a[n]` at the top level: what runs when the program reaches the declaration
  /// (the globals' initialisers, in order); its bindings are in `SyntaxTree.bindings(_:)`.
  case globalDeclaration(Int32)
  /// Where a lexical error stood; the error was already reported.
  case error
}

/// Whether a name holds a number or an array (SPEC §5). Known from the declaration, so every
/// misuse is found before the program runs.
public enum NameKind: Sendable, Equatable {
  case number
  case array
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

/// A run of the tree's binding table: the bindings of one `var`.
public struct Bindings: Sendable, Equatable {
  /// The index of the first binding in the tree's binding table.
  public var first: Int32
  public var count: Int32

  /// The indices of the bindings in the tree's binding table.
  public var indices: Range<Int> { Int(first)..<Int(first + count) }
}

/// The parts of a `var ... in` expression.
public struct VarIn: Sendable, Equatable {
  public var bindings: Bindings
  public var body: ExprID
}

/// One binding of a `var`: `x`, `x = e`, `a[n]`, `a[] = [1, 2]` or `s[] = "text"`.
public struct VarBinding: Sendable, Equatable {
  /// What a binding makes.
  public enum Value: Sendable, Equatable {
    /// A number, `x = initializer`; nil when absent: the variable starts at 0.0.
    case number(initializer: ExprID?)
    /// `a[count]`: an array of `count` zeros.
    case zeros(count: ExprID)
    /// `a[] = [...]` or `a[] = "..."`: an `.arrayLiteral` or `.string` node.
    case elements(ExprID)
  }

  public var name: Name
  public var nameRange: SourceRange
  public var value: Value

  public var kind: NameKind {
    switch value {
    case .number: .number
    case .zeros, .elements: .array
    }
  }
}

/// A function parameter: `x`, or `a[]` for an array.
public struct Parameter: Sendable, Equatable {
  public var name: Name
  public var range: SourceRange
  public var kind: NameKind

  public init(name: Name, range: SourceRange, kind: NameKind = .number) {
    self.name = name
    self.range = range
    self.kind = kind
  }
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
  /// A declaration of globals: its `.globalDeclaration` node runs when the program reaches it.
  case globals(ExprID)
  /// A definition whose body did not parse. Its prototype still declares the function, so
  /// calls to it elsewhere are not reported as unknown.
  case brokenDefinition(Prototype)
}

/// A parsed source file: its items and the arena holding their expressions.
///
/// Expression nodes are stored in one array, 16 bytes each: a kind byte, 8 bytes of operands
/// and the offset of the node's main token (its end is found by lexing that token again when
/// a diagnostic or a debug location needs it). One array rather than a column per field: a
/// node is then added with one append, which made `check` 8% fewer instructions, for 3
/// bytes more a node. Nodes are added children first, and every
/// expression's root is the last node added while parsing it, so a node whose last child is
/// parsed last (the right operand of an operator, the `else` branch) finds it just before
/// itself and does not store it. `subscript(_:)` decodes a node into an `Expr`.
public struct SyntaxTree: Sendable {
  public let file: SourceFile
  public internal(set) var items: [Item] = []
  public internal(set) var names: NameTable

  private var nodes: [Node] = []
  /// Call arguments: for each call, its argument count, then its arguments.
  private var lists: [Int32] = []
  private var forLoops: [ForLoop] = []
  private var varIns: [VarIn] = []
  private var globalDeclarations: [Bindings] = []
  private var varBindings: [VarBinding] = []
  /// The bytes of each string literal, escapes decoded.
  private var strings: [[UInt8]] = []

  public init(file: SourceFile, names: NameTable = NameTable()) {
    self.file = file
    self.names = names
  }

  /// The number of expression nodes; IDs run from 0 to `exprCount - 1`.
  public var exprCount: Int { nodes.count }

  @inline(__always)
  public subscript(id: ExprID) -> Expr {
    let node = nodes[Int(id.index)]
    let operands = node.operands
    let previous = ExprID(index: id.index - 1)
    switch node.kind {
    case .number: return .number(Double(bitPattern: operands.bits))
    case .variable: return .variable(Name(index: operands.a))
    case .unary: return .unary(op: UInt8(truncatingIfNeeded: operands.b), operand: previous)
    case .binary: return .binary(op: UInt8(truncatingIfNeeded: operands.b), lhs: ExprID(index: operands.a), rhs: previous)
    case .assign: return .assign(target: ExprID(index: operands.a), value: previous)
    case .call:
      let list = ExprList(start: operands.b + 1, count: lists[Int(operands.b)])
      return .call(callee: Name(index: operands.a), arguments: list)
    case .ifElse: return .ifElse(condition: ExprID(index: operands.a), then: ExprID(index: operands.b), else: previous)
    case .forLoop: return .forLoop(operands.a)
    case .varIn: return .varIn(operands.a)
    case .element: return .element(array: Name(index: operands.a), index: previous)
    case .storeElement:
      return .storeElement(array: Name(index: operands.a), index: ExprID(index: operands.b), value: previous)
    case .length: return .length(array: Name(index: operands.a))
    case .arrayLiteral: return .arrayLiteral(elements: ExprList(start: operands.b + 1, count: lists[Int(operands.b)]))
    case .string: return .string(operands.a)
    case .globalDeclaration: return .globalDeclaration(operands.a)
    case .error: return .error
    }
  }

  /// The offset of the node's main token.
  public func start(of id: ExprID) -> Int { Int(nodes[Int(id.index)].start) }

  /// The range of the node's main token.
  public func range(of id: ExprID) -> SourceRange {
    range(ofTokenAt: start(of: id))
  }

  /// The range of the token that starts at `start`.
  func range(ofTokenAt start: Int) -> SourceRange {
    SourceRange(start: start, end: Lexer.tokenEnd(in: file, at: start))
  }

  public func arguments(_ list: ExprList) -> ExprIDs {
    ExprIDs(storage: lists[Int(list.start)..<Int(list.start + list.count)])
  }

  public func forLoop(_ index: Int32) -> ForLoop { forLoops[Int(index)] }
  public func varIn(_ index: Int32) -> VarIn { varIns[Int(index)] }
  /// The bindings of a `.globalDeclaration` node.
  public func globalDeclaration(_ index: Int32) -> Bindings { globalDeclarations[Int(index)] }
  /// The bytes of a `.string` node's literal.
  public func string(_ index: Int32) -> [UInt8] { strings[Int(index)] }

  /// The bindings of a `var`, in order.
  public func bindings(_ bindings: Bindings) -> ArraySlice<VarBinding> { varBindings[bindings.indices] }

  /// How many `var` bindings the tree has (the size of its binding table).
  public var bindingCount: Int { varBindings.count }

  /// The spelling of a name.
  public func text(_ name: Name) -> String { names[name] }

  // MARK: Building (used by the parser)

  /// Adds a node. `lastChild` is the child that must have been added just before it.
  private mutating func add(_ kind: NodeKind, _ operands: NodeOperands, at start: Int, lastChild: ExprID? = nil) -> ExprID {
    assert(lastChild.map { Int($0.index) == nodes.count - 1 } ?? true, "children are added just before their parent")
    nodes.append(Node(operands: operands, start: UInt32(truncatingIfNeeded: start), kind: kind))
    return ExprID(index: Int32(nodes.count - 1))
  }

  mutating func addNumber(_ value: Double, at start: Int) -> ExprID {
    add(.number, NodeOperands(bits: value.bitPattern), at: start)
  }

  mutating func addVariable(_ name: Name, at start: Int) -> ExprID {
    add(.variable, NodeOperands(a: name.index, b: 0), at: start)
  }

  mutating func addUnary(_ op: UInt8, operand: ExprID, at start: Int) -> ExprID {
    add(.unary, NodeOperands(a: 0, b: Int32(op)), at: start, lastChild: operand)
  }

  mutating func addBinary(_ op: UInt8, lhs: ExprID, rhs: ExprID, at start: Int) -> ExprID {
    add(.binary, NodeOperands(a: lhs.index, b: Int32(op)), at: start, lastChild: rhs)
  }

  mutating func addAssign(target: ExprID, value: ExprID, at start: Int) -> ExprID {
    add(.assign, NodeOperands(a: target.index, b: 0), at: start, lastChild: value)
  }

  mutating func addCall(_ callee: Name, arguments: ArraySlice<ExprID>, at start: Int) -> ExprID {
    add(.call, NodeOperands(a: callee.index, b: addList(arguments)), at: start)
  }

  /// Stores a list of expressions: its count, then its elements; returns where it starts.
  private mutating func addList(_ elements: ArraySlice<ExprID>) -> Int32 {
    let list = Int32(lists.count)
    lists.append(Int32(elements.count))
    for element in elements { lists.append(element.index) }
    return list
  }

  mutating func addIf(condition: ExprID, then: ExprID, else otherwise: ExprID, at start: Int) -> ExprID {
    add(.ifElse, NodeOperands(a: condition.index, b: then.index), at: start, lastChild: otherwise)
  }

  mutating func addForLoop(_ loop: ForLoop, at start: Int) -> ExprID {
    forLoops.append(loop)
    return add(.forLoop, NodeOperands(a: Int32(forLoops.count - 1), b: 0), at: start)
  }

  mutating func addVarIn(_ bindings: ArraySlice<VarBinding>, body: ExprID, at start: Int) -> ExprID {
    varIns.append(VarIn(bindings: addBindings(bindings), body: body))
    return add(.varIn, NodeOperands(a: Int32(varIns.count - 1), b: 0), at: start)
  }

  mutating func addGlobalDeclaration(_ bindings: ArraySlice<VarBinding>, at start: Int) -> ExprID {
    globalDeclarations.append(addBindings(bindings))
    return add(.globalDeclaration, NodeOperands(a: Int32(globalDeclarations.count - 1), b: 0), at: start)
  }

  private mutating func addBindings(_ bindings: ArraySlice<VarBinding>) -> Bindings {
    let run = Bindings(first: Int32(varBindings.count), count: Int32(bindings.count))
    varBindings.append(contentsOf: bindings)
    return run
  }

  mutating func addElement(_ array: Name, index: ExprID, at start: Int) -> ExprID {
    add(.element, NodeOperands(a: array.index, b: 0), at: start, lastChild: index)
  }

  mutating func addStoreElement(_ array: Name, index: ExprID, value: ExprID, at start: Int) -> ExprID {
    add(.storeElement, NodeOperands(a: array.index, b: index.index), at: start, lastChild: value)
  }

  mutating func addLength(_ array: Name, at start: Int) -> ExprID {
    add(.length, NodeOperands(a: array.index, b: 0), at: start)
  }

  mutating func addArrayLiteral(_ elements: ArraySlice<ExprID>, at start: Int) -> ExprID {
    add(.arrayLiteral, NodeOperands(a: 0, b: addList(elements)), at: start)
  }

  mutating func addString(_ bytes: [UInt8], at start: Int) -> ExprID {
    strings.append(bytes)
    return add(.string, NodeOperands(a: Int32(strings.count - 1), b: 0), at: start)
  }

  mutating func addError(at start: Int) -> ExprID {
    add(.error, NodeOperands(a: 0, b: 0), at: start)
  }

  /// Drops every item and expression, keeping the names and the storage's capacity.
  mutating func removeItems() {
    items.removeAll(keepingCapacity: true)
    nodes.removeAll(keepingCapacity: true)
    lists.removeAll(keepingCapacity: true)
    forLoops.removeAll(keepingCapacity: true)
    varIns.removeAll(keepingCapacity: true)
    globalDeclarations.removeAll(keepingCapacity: true)
    varBindings.removeAll(keepingCapacity: true)
    strings.removeAll(keepingCapacity: true)
  }

  /// Reserves room for the nodes of a source of `sourceBytes` bytes. A node has a token of
  /// its own, so there are at most as many nodes as bytes; reserving that many leaves the
  /// arrays' pages untouched until used, and the arrays are never copied to grow.
  mutating func reserveCapacity(sourceBytes: Int) {
    nodes.reserveCapacity(sourceBytes + 1)
  }
}

/// An expression node as stored: 16 bytes, appended in one go.
private struct Node {
  var operands: NodeOperands
  /// The offset of the node's main token: the literal, the name, the operator character,
  /// or the keyword that starts it. Diagnostics and debug locations point there.
  var start: UInt32
  var kind: NodeKind
}

/// What a node is.
private enum NodeKind: UInt8 {
  case number, variable, unary, binary, assign, call, ifElse, forLoop, varIn
  case element, storeElement, length, arrayLiteral, string, globalDeclaration
  case error
}

/// A node's operands: two 32-bit fields, or the 64 bits of a literal's value.
private struct NodeOperands {
  var bits: UInt64

  init(bits: UInt64) { self.bits = bits }
  init(a: Int32, b: Int32) {
    bits = UInt64(UInt32(bitPattern: a)) | UInt64(UInt32(bitPattern: b)) << 32
  }

  var a: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: bits)) }
  var b: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)) }
}

extension SyntaxTree {
  /// Where the first token of the expression at `id` starts (a node records its main token:
  /// for `a + b`, the `+`). Diagnostics about a whole expression point here.
  public func firstTokenStart(of id: ExprID) -> Int {
    var current = id
    while true {
      switch self[current] {
      case .binary(_, let lhs, _), .assign(let lhs, _): current = lhs
      default: return start(of: current)
      }
    }
  }

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
