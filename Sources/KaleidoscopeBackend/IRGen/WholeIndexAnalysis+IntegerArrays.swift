import KaleidoscopeFrontend

/// Which global arrays of a whole program keep their elements as 64-bit integers.
extension WholeIndexAnalysis {
  /// What is known of a whole program's globals (`stableGlobals`) and the array globals
  /// kept as integers (`integerArrays`), by `GlobalID.index`: worked out together, once
  /// for every module and engine of a run.
  struct GlobalFacts {
    var stable: [Whole?]
    var integerArrays: [Bool]
    /// The parameters every call passes a small whole number
    /// (`ExactArithmetic.parameterBits`), by `FunctionID.index`.
    var parameters: [[Int?]] = []

    /// What the REPL knows: nothing, and every array holds doubles.
    static let none = GlobalFacts(stable: [], integerArrays: [])
  }

  /// The facts of a whole program's globals, and of the parameters its calls pass whole
  /// numbers; the arrays passed to functions are found once for both kinds of global.
  static func globalFacts(of program: CheckedProgram, forSemantics: ForSemantics) -> GlobalFacts {
    let passed = passedArrays(of: program)
    let stable = stableGlobals(of: program, forSemantics: forSemantics, passed: passed)
    return GlobalFacts(
      stable: stable, integerArrays: integerArrays(of: program, globals: stable, passed: passed),
      parameters: forSemantics == .current ? ExactArithmetic.parameterBits(of: program, globals: stable) : [])
  }

  /// The array globals of a whole program whose elements are kept as 64-bit integers
  /// instead of doubles, by `GlobalID.index`: those never passed to a function, so that
  /// only the code that indexes them by name reads or writes them, whose every element is
  /// proved (`globals`, from `stableGlobals`) a whole number below 2^52 in magnitude that
  /// is never -0, and none of whose elements is multiplied or divided
  /// (`arraysInProducts`). Such a double converts to an integer and back exactly, so every
  /// engine that agrees on this list reads what the language's doubles would hold.
  ///
  /// An element that becomes an index, or is compared, is converted to an integer on the
  /// way, often on a loop's critical path (a permutation's `perm[perm[0]]`, a jump table's
  /// `pc = jump[pc]`, an interpreter's dispatch on `code[pc]`); kept as an integer, it
  /// needs none. Below 2^52, LLVM also knows (from the range of each load) that `cell + 1`
  /// or `count[r] - 1` gives the same in integers, and does it there. A product must be
  /// done in doubles, so an element multiplied would be converted at each read instead
  /// (an integer matrix's product ran 1.2× slower): such an array keeps doubles.
  /// `passed`, when given, is `passedArrays(of: program)`.
  static func integerArrays(of program: CheckedProgram, globals: [Whole?], passed: Set<Int>? = nil) -> [Bool] {
    let none = [Bool](repeating: false, count: program.globals.symbols.count)
    guard program.globals.symbols.contains(where: { $0.kind == .array }) else { return none }
    let passed = passed ?? passedArrays(of: program)
    let inProducts = arraysInProducts(of: program)
    return program.globals.symbols.indices.map { index in
      guard program.globals.symbols[index].kind == .array, !passed.contains(index), !inProducts.contains(index),
        index < globals.count, let fact = globals[index]
      else { return false }
      return fact.bits <= 52 && !fact.mayBeNegativeZero
    }
  }

  /// The array globals named as a call's argument: only they can reach an array parameter
  /// (an array name is used as a value nowhere else).
  static func passedArrays(of program: CheckedProgram) -> Set<Int> {
    let tree = program.tree
    var passed: Set<Int> = []
    for index in 0..<tree.exprCount {
      let id = ExprID(index: Int32(index))
      guard case .variable = tree[id], case .global(let global)? = program.reference(of: id),
        program.globals.symbols[Int(global.index)].kind == .array
      else { continue }
      passed.insert(Int(global.index))
    }
    return passed
  }

  /// The array globals some of whose elements are multiplied or divided (by the built-in
  /// `*` or `/`) within one body: directly (`a[i] * x`), or held by number locals on the
  /// way (`v = a[i]`, then `v * x`), possibly plus or minus something or as a branch of an
  /// `if`.
  static func arraysInProducts(of program: CheckedProgram) -> Set<Int> {
    var arrays: Set<Int> = []
    for body in program.bodies {
      var flow = ElementFlow(program: program, body: body)
      arrays.formUnion(flow.arraysInProducts())
    }
    return arrays
  }
}

/// Which arrays' elements each number local of one body may hold, for
/// `WholeIndexAnalysis.arraysInProducts`: a syntactic walk, to a fixed point over the
/// body's assignments, that ignores the order they run in.
private struct ElementFlow {
  let program: CheckedProgram
  let body: CheckedBody
  /// For each local, by `LocalID.index`, the arrays (by `GlobalID.index`) whose elements
  /// it may hold.
  private var held: [Set<Int>]
  /// Each assignment of a local in the body (`=`, or a `var` binding), and the operands of
  /// its products and quotients.
  private var assignments: [(local: LocalID, value: ExprID)] = []
  private var operands: [ExprID] = []

  init(program: CheckedProgram, body: CheckedBody) {
    self.program = program
    self.body = body
    held = Array(repeating: [], count: body.locals.count)
    collect()
  }

  /// Most walks of the assignments, after which every array counts as multiplied (a flow
  /// missed would leave one as integers that pays a conversion per read).
  static let rounds = 8

  /// The arrays whose elements reach an operand of a product or a quotient of the body.
  mutating func arraysInProducts() -> Set<Int> {
    var changed = true
    for _ in 0..<Self.rounds where changed {
      changed = false
      for (local, value) in assignments {
        let before = held[Int(local.index)].count
        held[Int(local.index)].formUnion(arrays(in: value))
        changed = changed || held[Int(local.index)].count != before
      }
    }
    if changed { return Set(program.globals.symbols.indices) }
    return operands.reduce(into: Set<Int>()) { $0.formUnion(arrays(in: $1)) }
  }

  /// The arrays whose elements the value of `id` may be, give or take a sum, on either
  /// branch of an `if`; walked without
  /// recursion, so that a long chain of sums cannot exhaust the stack.
  private func arrays(in id: ExprID) -> Set<Int> {
    let tree = program.tree
    var arrays: Set<Int> = []
    var work = [id]
    while let next = work.popLast() {
      switch tree[next] {
      case .element:
        if case .global(let global) = program.variable(of: next) { arrays.insert(Int(global.index)) }
      case .variable:
        if case .local(let local)? = program.reference(of: next), Int(local.index) < held.count {
          arrays.formUnion(held[Int(local.index)])
        }
      case .binary(let op, let lhs, let rhs):
        if program.callee(of: next) == nil, op == UInt8(ascii: "+") || op == UInt8(ascii: "-") { work += [lhs, rhs] }
      case .assign(_, let value):
        work.append(value)
      case .ifElse(_, let then, let otherwise):
        work += [then, otherwise]
      case .number, .unary, .call, .loop, .varIn, .storeElement, .length, .arrayLiteral, .string, .globalDeclaration,
        .error:
        break
      }
    }
    return arrays
  }

  /// Finds the body's assignments of locals and the operands of its products and quotients.
  private mutating func collect() {
    let tree = program.tree
    _ = tree.contains(SyntaxNode(.expr(body.body))) { node in
      guard case .expr(let id) = node.reference else { return false }
      switch tree[id] {
      case .assign(let target, let value):
        if case .local(let local)? = program.reference(of: target) { assignments.append((local, value)) }
      case .varIn(let index):
        let varIn = tree.varIn(index)
        for (binding, local) in zip(tree.bindings(varIn.bindings), program.bindingLocals(of: varIn)) {
          if case .number(let initializer?) = binding.value { assignments.append((local, initializer)) }
        }
      case .binary(let op, let lhs, let rhs):
        if program.callee(of: id) == nil, op == UInt8(ascii: "*") || op == UInt8(ascii: "/") { operands += [lhs, rhs] }
      case .number, .variable, .unary, .call, .ifElse, .loop, .element, .storeElement, .length, .arrayLiteral, .string,
        .globalDeclaration, .error:
        break
      }
      return false
    }
  }
}
