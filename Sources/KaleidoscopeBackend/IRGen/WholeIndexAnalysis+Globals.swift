import KaleidoscopeFrontend

/// What a whole program's globals are known to hold, for `WholeIndexAnalysis`: the number
/// globals that nothing assigns, and the elements of the global arrays.
extension WholeIndexAnalysis {
  /// The most times the storing bodies are walked before the elements' facts are given up.
  static let elementRounds = 8

  /// What is known of each global of a whole program, by `GlobalID.index`: of a number
  /// global, its value; of an array global, every element. Pass none for the REPL's inputs,
  /// where a later input may declare a global again or store anything.
  ///
  /// A number global that nothing assigns holds 0 until its declaration runs and its
  /// initialiser after, so a whole literal initialiser, or none, makes it a known whole
  /// number.
  ///
  /// An array global holds its initial values (zeros, a string's bytes, a literal's
  /// numbers) and what any body stores into it, directly or through an array parameter.
  /// Whether a store is whole can depend on the elements themselves (`a[i] = a[i] + 1`),
  /// so the facts start from the initial values and are checked against every store; a
  /// fact that a store breaks is widened, or dropped, and the storing bodies are walked
  /// again, until every store keeps every fact. The facts then hold in every execution,
  /// whichever engine stored the elements. A store through an array parameter may reach
  /// only the arrays passed as arguments (`passed`, when given, is `passedArrays`).
  static func stableGlobals(of program: CheckedProgram, forSemantics: ForSemantics, passed: Set<Int>? = nil) -> [Whole?] {
    var globals = numberGlobals(of: program)
    let arrays = program.globals.symbols.indices.filter { program.globals.symbols[$0].kind == .array }
    guard !arrays.isEmpty else { return globals }
    let passed = passed ?? passedArrays(of: program)
    for (index, fact) in initialElements(of: program) { globals[index] = fact }
    let storing = bodiesThatStore(in: program)
    var budget = Self.budget + 8 * program.tree.exprCount
    for _ in 0..<elementRounds {
      var stored: [Int: Whole?] = [:]
      for body in storing {
        var visited = 0
        let facts = analyze(body, in: program, forSemantics: forSemantics, globals: globals, budget: budget, visited: &visited)
        budget -= visited
        guard facts.isComplete, budget > 0 else { return forgettingElements(globals, arrays) }
        for (key, fact) in facts.storedElements { stored[key] = stored[key].map { join($0, fact) } ?? fact }
      }
      var changed = false
      for index in arrays {
        var fact = globals[index]
        if let store = stored[index] { fact = join(fact, store) }
        if let store = stored[-1], passed.contains(index) { fact = join(fact, store) }
        guard fact != globals[index] else { continue }
        changed = true
        globals[index] = widen(fact)
      }
      if !changed { return globals }
    }
    return forgettingElements(globals, arrays)
  }

  private static func forgettingElements(_ globals: [Whole?], _ arrays: [Int]) -> [Whole?] {
    var globals = globals
    for index in arrays { globals[index] = nil }
    return globals
  }

  /// What each array global holds when its declaration has run (and, with no elements,
  /// before): zeros, a string's bytes, or a literal's numbers when all are literals.
  private static func initialElements(of program: CheckedProgram) -> [(index: Int, fact: Whole?)] {
    let tree = program.tree
    var found: [(index: Int, fact: Whole?)] = []
    for item in tree.items {
      guard case .globals(let root) = item, case .globalDeclaration(let index) = tree[root] else { continue }
      for binding in tree.bindings(tree.globalDeclaration(index)) {
        guard let global = program.globals.lookup(binding.name) else { continue }
        switch binding.value {
        case .number: continue
        case .zeros: found.append((Int(global.index), literal(0)))
        case .elements(let node): found.append((Int(global.index), elements(of: node, in: program)))
        }
      }
    }
    return found
  }

  private static func elements(of node: ExprID, in program: CheckedProgram) -> Whole? {
    let tree = program.tree
    switch tree[node] {
    case .string: return Whole(bits: 8, sign: .nonNegative, mayBeNegativeZero: false)
    case .arrayLiteral(let list):
      var fact = Self.literal(0)
      for element in tree.arguments(list) {
        guard let value = literalValue(element, in: program) else { return nil }
        fact = join(fact, Self.literal(value))
      }
      return fact
    default: return nil
    }
  }

  /// A number literal's value, or a negated one's (`-3`, with the built-in `-`).
  static func literalValue(_ node: ExprID, in program: CheckedProgram) -> Double? {
    switch program.tree[node] {
    case .number(let value): return value
    case .unary(_, let operand):
      guard program.callee(of: node) == nil, case .number(let value) = program.tree[operand] else { return nil }
      return -value
    default: return nil
    }
  }

  /// The bodies with an element store: only they can break a fact about elements.
  private static func bodiesThatStore(in program: CheckedProgram) -> [CheckedBody] {
    let tree = program.tree
    // Found in each body's tree: a top-level expression's range is only its main token.
    return program.bodies.filter { body in
      tree.contains(SyntaxNode(.expr(body.body))) { node in
        guard case .expr(let id) = node.reference, case .storeElement = tree[id] else { return false }
        return true
      }
    }
  }

  /// The value each number global declared with a literal initialiser, or none, holds once
  /// its declaration has run (0 with none), by `GlobalID.index`.
  static func literalInitializers(of program: CheckedProgram) -> [Int32: Double] {
    let tree = program.tree
    var values: [Int32: Double] = [:]
    for item in tree.items {
      guard case .globals(let root) = item, case .globalDeclaration(let index) = tree[root] else { continue }
      for binding in tree.bindings(tree.globalDeclaration(index)) {
        guard case .number(let initializer) = binding.value, let global = program.globals.lookup(binding.name) else {
          continue
        }
        if let initializer {
          guard case .number(let literal) = tree[initializer] else { continue }
          values[global.index] = literal
        } else {
          values[global.index] = 0
        }
      }
    }
    return values
  }

  /// What is known of each number global (see `stableGlobals`); nil for the arrays.
  private static func numberGlobals(of program: CheckedProgram) -> [Whole?] {
    var globals = [Whole?](repeating: nil, count: program.globals.symbols.count)
    // A literal initialiser, or none (0): its fact, and 0 before the declaration runs.
    // Anything else: unknown.
    for (index, value) in literalInitializers(of: program) {
      globals[Int(index)] = join(Self.literal(value), Self.literal(0))
    }
    for index in assignedGlobals(of: program) { globals[Int(index)] = nil }
    return globals
  }

  /// The globals that an assignment anywhere in the program names, by `GlobalID.index`.
  static func assignedGlobals(of program: CheckedProgram) -> Set<Int32> {
    let tree = program.tree
    var assigned: Set<Int32> = []
    for index in 0..<tree.exprCount {
      guard case .assign(let target, _) = tree[ExprID(index: Int32(index))],
        case .global(let global)? = program.reference(of: target)
      else { continue }
      assigned.insert(global.index)
    }
    return assigned
  }

}
