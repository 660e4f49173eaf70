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

  @usableFromInline init(start: Int32, count: Int32) {
    self.start = start
    self.count = count
  }
}

/// The expressions of an `ExprList`, read from the tree's list storage without copying.
public struct ExprIDs: RandomAccessCollection, Sendable {
  @usableFromInline let storage: ArraySlice<Int32>

  @usableFromInline init(storage: ArraySlice<Int32>) {
    self.storage = storage
  }

  @inlinable public var startIndex: Int { storage.startIndex }
  @inlinable public var endIndex: Int { storage.endIndex }
  @inlinable public subscript(position: Int) -> ExprID { ExprID(index: storage[position]) }
}

/// A parsed source file: its items and the arena holding their expressions.
///
/// Expression nodes are stored in one array, 16 bytes each: a kind byte, 8 bytes of operands
/// and the offset of the node's main token (its end is found by lexing that token again when
/// a diagnostic or a debug location needs it). One array rather than a column per field: a
/// node is then added with one append, which makes `check` cheaper than the 3 bytes a node
/// it costs (docs/BENCHMARKS.md). Nodes are added children first, and every
/// expression's root is the last node added while parsing it, so a node whose last child is
/// parsed last (the right operand of an operator, the `else` branch) finds it just before
/// itself and does not store it. `subscript(_:)` decodes a node into an `Expr`.
public struct SyntaxTree: Sendable {
  public let file: SourceFile
  public internal(set) var items: [Item] = []
  public internal(set) var names: NameTable

  @usableFromInline var nodes: [Node] = []
  /// Call arguments: for each call, its argument count, then its arguments.
  @usableFromInline var lists: [Int32] = []
  @usableFromInline var loops: [Loop] = []
  @usableFromInline var varIns: [VarIn] = []
  @usableFromInline var globalDeclarations: [Bindings] = []
  @usableFromInline var varBindings: [VarBinding] = []
  /// How many pairs of parentheses enclose each expression, by node, when the parser was
  /// asked to record them (the formatter keeps them); nodes past the end have none. The
  /// nesting limit keeps a count within 16 bits.
  @usableFromInline var parenthesesCounts: [UInt16] = []
  var recordsParentheses = false
  /// The bytes of each string literal, escapes decoded.
  private var strings: [[UInt8]] = []

  public init(file: SourceFile, names: NameTable = NameTable()) {
    self.file = file
    self.names = names
  }

  /// The number of expression nodes; IDs run from 0 to `exprCount - 1`.
  public var exprCount: Int { nodes.count }

  /// The number of loops; a `.loop` node's index runs from 0 to `loopCount - 1`.
  public var loopCount: Int { loops.count }

  /// The node at `id`, decoded. Inlinable: every pass and tool reads the tree through here.
  @inlinable @inline(__always)
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
    case .loop: return .loop(operands.a)
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
  @inlinable public func start(of id: ExprID) -> Int { Int(nodes[Int(id.index)].start) }

  /// The range of the node's main token.
  public func range(of id: ExprID) -> SourceRange {
    range(ofTokenAt: start(of: id))
  }

  /// The range of the token that starts at `start`.
  func range(ofTokenAt start: Int) -> SourceRange {
    SourceRange(start: start, end: Lexer.tokenEnd(in: file, at: start))
  }

  @inlinable
  public func arguments(_ list: ExprList) -> ExprIDs {
    ExprIDs(storage: lists[Int(list.start)..<Int(list.start + list.count)])
  }

  /// Argument `position` of `list`: for a walk that evaluates each argument in turn and
  /// would otherwise keep the list's slice, and its storage, retained across the walk.
  @inlinable
  public func argument(_ position: Int32, of list: ExprList) -> ExprID {
    ExprID(index: lists[Int(list.start + position)])
  }

  @inlinable public func loop(_ index: Int32) -> Loop { loops[Int(index)] }
  @inlinable public func varIn(_ index: Int32) -> VarIn { varIns[Int(index)] }
  /// The bindings of a `.globalDeclaration` node.
  public func globalDeclaration(_ index: Int32) -> Bindings { globalDeclarations[Int(index)] }
  /// The bytes of a `.string` node's literal.
  public func string(_ index: Int32) -> [UInt8] { strings[Int(index)] }

  /// The bindings of a `var`, in order.
  @inlinable public func bindings(_ bindings: Bindings) -> ArraySlice<VarBinding> { varBindings[bindings.indices] }

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

  mutating func addLoop(_ loop: Loop, at start: Int) -> ExprID {
    loops.append(loop)
    return add(.loop, NodeOperands(a: Int32(loops.count - 1), b: 0), at: start)
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

  mutating func noteParentheses(around id: ExprID) {
    guard recordsParentheses else { return }
    let index = Int(id.index)
    if parenthesesCounts.count <= index {
      parenthesesCounts.append(contentsOf: repeatElement(0, count: index + 1 - parenthesesCounts.count))
    }
    parenthesesCounts[index] &+= 1
  }

  /// How many pairs of parentheses were written around `id` (0 unless recorded).
  @inlinable
  public func parentheses(around id: ExprID) -> Int {
    let index = Int(id.index)
    return index < parenthesesCounts.count ? Int(parenthesesCounts[index]) : 0
  }

  mutating func addError(at start: Int) -> ExprID {
    add(.error, NodeOperands(a: 0, b: 0), at: start)
  }

  /// Drops every item and expression, keeping the names and the storage's capacity.
  mutating func removeItems() {
    items.removeAll(keepingCapacity: true)
    nodes.removeAll(keepingCapacity: true)
    lists.removeAll(keepingCapacity: true)
    loops.removeAll(keepingCapacity: true)
    varIns.removeAll(keepingCapacity: true)
    globalDeclarations.removeAll(keepingCapacity: true)
    parenthesesCounts.removeAll(keepingCapacity: true)
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

/// An expression node as stored: 16 bytes, appended in one go. (Usable from inlinable code,
/// so that reading a node from another module is not a call.)
@usableFromInline struct Node: Sendable {
  @usableFromInline var operands: NodeOperands
  /// The offset of the node's main token: the literal, the name, the operator character,
  /// or the keyword that starts it. Diagnostics and debug locations point there.
  @usableFromInline var start: UInt32
  @usableFromInline var kind: NodeKind
}

/// What a node is.
@usableFromInline enum NodeKind: UInt8, Sendable {
  case number, variable, unary, binary, assign, call, ifElse, loop, varIn
  case element, storeElement, length, arrayLiteral, string, globalDeclaration
  case error
}

/// A node's operands: two 32-bit fields, or the 64 bits of a literal's value.
@usableFromInline struct NodeOperands: Sendable {
  @usableFromInline var bits: UInt64

  init(bits: UInt64) { self.bits = bits }
  init(a: Int32, b: Int32) {
    bits = UInt64(UInt32(bitPattern: a)) | UInt64(UInt32(bitPattern: b)) << 32
  }

  @inlinable var a: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: bits)) }
  @inlinable var b: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)) }
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
