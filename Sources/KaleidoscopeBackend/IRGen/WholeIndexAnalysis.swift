import KaleidoscopeFrontend

/// What `WholeIndexAnalysis` proves about one body.
struct IndexFacts {
  /// The `.element` and `.storeElement` nodes whose index is always a whole number that
  /// converts to a 64-bit integer exactly when the access is checked (signed below 2^63,
  /// else unsigned: not negative and below 2^64), with what is known of it, so its bounds
  /// check needs no round trip to detect a fraction.
  var wholeIndices: [ExprID: WholeIndexAnalysis.Whole] = [:]
  /// Calls to defined functions, each with the number parameters (as bits, by position)
  /// whose argument is always a counter (`WholeIndexAnalysis.Whole.counter`); only calls
  /// with at least one such argument are listed.
  var wholeArguments: [ExprID: UInt64] = [:]
  /// What the body stores into arrays, by the global's `GlobalID.index` (nil: unknown); a
  /// store through an array parameter, which may be any global array, is under `-1`.
  var storedElements: [Int: WholeIndexAnalysis.Whole?] = [:]
  /// The number locals that hold whole numbers below 2^52 throughout (by `LocalID.index`),
  /// which the IR generator keeps in integers too.
  var integralLocals: Set<Int32> = []
  /// Those of `integralLocals` that are never -0, which arithmetic in integers may read
  /// (`ExactArithmetic`).
  var integralLocalsNeverNegativeZero: Set<Int32> = []
  /// Those of `integralLocals` below 2^31 in magnitude and never -0, which read back
  /// exactly from a 32-bit copy.
  var smallIntegralLocals: Set<Int32> = []
  /// The number locals that only ever step by one from a whole number below 2^53, never -0,
  /// and that a loop's test reads (`WholeIndexAnalysis.steppedLocals`), which the IR
  /// generator keeps in integers too.
  var steppedLocals: Set<Int32> = []
  /// False when the walk ran out of budget: then nothing is proved, and `storedElements`
  /// does not list every store.
  var isComplete = true
}

/// Proves array indices whole numbers before IR generation, flow-sensitively, for one body.
///
/// An index is usually a counter or a position computed from one, and once `a[i]` has passed
/// its check, `i` is known to be a whole number below 2^32 until it is assigned again. The
/// analysis walks the body in evaluation order, as the interpreter and the IR generator do,
/// keeping for each number local what is known of its value (`Whole`); a loop is walked
/// until its facts are stable. A parameter is known when the caller says so
/// (`wholeParameters`), which is how the IR generator's specialised copies of a function
/// get their facts. It is sound for every execution, whichever engine ran the code before.
///
/// The analysis only ever removes the fraction test of a bounds check; the unsigned
/// comparison with the count stays, so memory safety never depends on it.
struct WholeIndexAnalysis {
  /// Whether a whole number may be negative, which decides how it converts exactly.
  enum Sign: Equatable {
    case nonNegative
    case any
  }

  /// A number known to be whole and finite, below 2^bits in magnitude, maybe known not to
  /// be negative, and maybe known not to be -0; only numbers that convert to 64 bits
  /// exactly are tracked. A "non-negative" number may still be -0, which converts to the
  /// integer 0 and passes every check 0 does; only one never -0 reads back exactly from an
  /// integer.
  struct Whole: Equatable {
    var bits: Int
    var sign: Sign
    var mayBeNegativeZero: Bool

    /// The fact if it still converts exactly (below 2^64 unsigned, 2^63 signed), else nil.
    init?(bits: Int, sign: Sign, mayBeNegativeZero: Bool = true) {
      guard bits <= (sign == .nonNegative ? 64 : 63) else { return nil }
      self.bits = bits
      self.sign = sign
      self.mayBeNegativeZero = mayBeNegativeZero
    }

    /// An array's length: from 0 to 2^32 - 1 (SPEC §5 caps lengths), never -0.
    static let index = Whole(bits: 32, sign: .nonNegative, mayBeNegativeZero: false)!
    /// An index or a little beyond: what a counter checked and then stepped stays below.
    static let counter = Whole(bits: 34, sign: .nonNegative)!
  }

  /// The most nodes one walk visits before it gives up, proving nothing; nested loops
  /// multiply the work.
  static let budget = 200_000

  /// Thrown when the budget is spent.
  struct OutOfBudget: Error {}

  private let program: CheckedProgram
  private let forSemantics: ForSemantics
  /// What is known of each number global's value and each array global's elements, by
  /// `GlobalID.index` (`stableGlobals`).
  let globals: [Whole?]
  /// Which locals are array parameters, whose elements may be any global array's.
  private let arrayParameters: Set<Int>
  private var tree: SyntaxTree { program.tree }
  private var facts: [Whole?]
  /// Bumped on each assignment to a local, so a store can tell whether its index variable
  /// changed while its value was evaluated.
  private var assignments: [Int]
  /// What each local is given by each assignment, from the final walk of every loop.
  private var assigned: [[Assignment]]
  /// False while a loop is walked towards its fixed point, when the facts are not yet final.
  private var recording = true
  private var steps = 0
  private let stepLimit: Int
  private var result = IndexFacts()

  /// The facts of `body`, whose number parameters in `wholeParameters` (bits by position)
  /// are known indices; nothing is proved if the walk visits more than `budget` nodes.
  /// `visited` is how many it did.
  static func analyze(
    _ body: CheckedBody, in program: CheckedProgram, forSemantics: ForSemantics, wholeParameters: UInt64 = 0,
    globals: [Whole?] = [], budget: Int = budget, visited: inout Int
  ) -> IndexFacts {
    var analysis = WholeIndexAnalysis(
      program: program, forSemantics: forSemantics, body: body, wholeParameters: wholeParameters, globals: globals,
      budget: budget)
    defer { visited = analysis.steps }
    do {
      _ = try analysis.evaluate(body.body)
      analysis.result.integralLocals = analysis.integralLocals(of: body) { $0.bits <= 52 }
      analysis.result.integralLocalsNeverNegativeZero = analysis.integralLocals(of: body) {
        $0.bits <= 52 && !$0.mayBeNegativeZero
      }
      analysis.result.smallIntegralLocals = analysis.integralLocals(of: body) { $0.bits <= 31 && !$0.mayBeNegativeZero }
      analysis.result.steppedLocals = Self.steppedLocals(of: body, assigned: analysis.assigned, in: program)
        .subtracting(analysis.result.integralLocals)
      return analysis.result
    } catch {
      var nothing = IndexFacts()
      nothing.isComplete = false
      return nothing
    }
  }

  static func analyze(
    _ body: CheckedBody, in program: CheckedProgram, forSemantics: ForSemantics, wholeParameters: UInt64 = 0,
    globals: [Whole?] = []
  ) -> IndexFacts {
    var visited = 0
    return analyze(
      body, in: program, forSemantics: forSemantics, wholeParameters: wholeParameters, globals: globals,
      visited: &visited)
  }

  private init(
    program: CheckedProgram, forSemantics: ForSemantics, body: CheckedBody, wholeParameters: UInt64, globals: [Whole?],
    budget: Int
  ) {
    self.program = program
    self.forSemantics = forSemantics
    self.globals = globals
    stepLimit = min(budget, Self.budget)
    facts = Array(repeating: nil, count: body.locals.count)
    arrayParameters = Set(
      body.locals.indices.filter { body.locals[$0].kind == .parameter && body.locals[$0].valueKind == .array })
    assignments = Array(repeating: 0, count: body.locals.count)
    assigned = Array(repeating: [], count: body.locals.count)
    let parameters = body.function.map { program.functions[$0].arity } ?? 0
    for position in 0..<min(parameters, 64) where wholeParameters & (1 << position) != 0 {
      facts[position] = .counter
    }
  }

  // MARK: - Arithmetic on magnitudes

  /// A literal, if it is a whole number that converts exactly.
  static func literal(_ value: Double) -> Whole? {
    guard value.isFinite, value.rounded(.towardZero) == value else { return nil }
    var bits = 0
    while bits <= 64, Double(sign: .plus, exponent: bits, significand: 1) <= value.magnitude { bits += 1 }
    return Whole(bits: bits, sign: value >= 0 ? .nonNegative : .any, mayBeNegativeZero: value == 0 && value.sign == .minus)
  }

  /// What a built-in operator gives: sums, differences and products of whole numbers are
  /// whole (rounding above 2^53 lands on whole numbers too); the bound grows by a bit, or
  /// the bounds add up. A sum is -0 only of two -0s, a difference only from a -0, and a
  /// product of a zero and a number of the other sign (`<` gives +0 or 1).
  static func combine(_ op: UInt8, _ lhs: Whole?, _ rhs: Whole?) -> Whole? {
    if op == UInt8(ascii: "<") { return Whole(bits: 1, sign: .nonNegative, mayBeNegativeZero: false) }
    guard let lhs, let rhs else { return nil }
    let bothNonNegative: Sign = lhs.sign == .nonNegative && rhs.sign == .nonNegative ? .nonNegative : .any
    switch op {
    case UInt8(ascii: "+"):
      return Whole(
        bits: sumBits(lhs.bits, rhs.bits), sign: bothNonNegative,
        mayBeNegativeZero: lhs.mayBeNegativeZero && rhs.mayBeNegativeZero)
    case UInt8(ascii: "-"):
      return Whole(bits: sumBits(lhs.bits, rhs.bits), sign: .any, mayBeNegativeZero: lhs.mayBeNegativeZero)
    case UInt8(ascii: "*"):
      let signsClear = bothNonNegative == .nonNegative && !lhs.mayBeNegativeZero && !rhs.mayBeNegativeZero
      return Whole(bits: lhs.bits + rhs.bits, sign: bothNonNegative, mayBeNegativeZero: !signsClear)
    default: return nil
    }
  }

  /// The bound of a sum or a difference of numbers below 2^a and 2^b: a bit more than the
  /// larger, unless the smaller is under 2^-54 of it. Then the sum cannot leave the larger's
  /// bound, 2^B: the largest double below 2^B is 2^B - 2^(B-53), and adding less than
  /// 2^(B-54) stays under the midpoint to 2^B, so it rounds down. That is why a pointer
  /// stepped by 1 with no check in between (`p = p + 1` in a loop) stays a known whole
  /// number: at 2^55 it stops growing, far below 2^63.
  static func sumBits(_ a: Int, _ b: Int) -> Int {
    let (larger, smaller) = (max(a, b), min(a, b))
    return larger >= smaller + 54 ? larger : larger + 1
  }

  /// What holds after either of two paths: the weaker bound, if both know one.
  static func join(_ a: Whole?, _ b: Whole?) -> Whole? {
    guard let a, let b else { return nil }
    return Whole(
      bits: max(a.bits, b.bits), sign: a.sign == b.sign ? a.sign : .any,
      mayBeNegativeZero: a.mayBeNegativeZero || b.mayBeNegativeZero)
  }

  /// A fact that grew in a loop, rounded up to the next bound that can hold: an index plus
  /// a little (a counter checked, then stepped), or the widest that converts exactly.
  static func widen(_ fact: Whole?) -> Whole? {
    guard let fact else { return nil }
    if fact.bits <= Whole.counter.bits {
      return Whole(bits: Whole.counter.bits, sign: fact.sign, mayBeNegativeZero: fact.mayBeNegativeZero)
    }
    return Whole(bits: fact.sign == .nonNegative ? 64 : 63, sign: fact.sign, mayBeNegativeZero: fact.mayBeNegativeZero)
  }

  // MARK: - Locals

  /// The `var` locals every assignment gives a whole number that `holds` accepts (below
  /// 2^52 in magnitude: in integers, they compute exactly what their doubles hold).
  private func integralLocals(of body: CheckedBody, where holds: (Whole) -> Bool) -> Set<Int32> {
    Set(
      body.locals.indices.filter { index in
        body.locals[index].kind == .variable && body.locals[index].valueKind == .number && !assigned[index].isEmpty
          && assigned[index].allSatisfy { $0.fact.map(holds) ?? false }
      }.map { Int32($0) })
  }

  private mutating func assign(_ local: LocalID, _ fact: Whole?, byStep: Bool = false) {
    facts[Int(local.index)] = fact
    assignments[Int(local.index)] += 1
    if recording { assigned[Int(local.index)].append(Assignment(fact: fact, byStep: byStep)) }
  }

  private func local(_ id: ExprID) -> LocalID? {
    guard case .variable = tree[id], case .local(let local) = program.variable(of: id) else { return nil }
    return local
  }

  /// Records what an access at `node` knows of its index, and that an index variable which
  /// passed the check is now a known index (unless it was assigned since it was read).
  private mutating func checked(_ node: ExprID, index: ExprID, fact: Whole?, assignmentsBefore: Int?) {
    if recording, let fact { result.wholeIndices[node] = fact }
    guard let local = local(index), assignments[Int(local.index)] == assignmentsBefore else { return }
    // -0 passes the check as 0 does.
    let before = facts[Int(local.index)]
    facts[Int(local.index)] = Whole(
      bits: min(before?.bits ?? Whole.index.bits, Whole.index.bits), sign: .nonNegative,
      mayBeNegativeZero: before?.mayBeNegativeZero ?? true)
  }

  /// Joins a stored value's fact into what its array is known to receive.
  private mutating func recordStore(_ stored: Whole?, at node: ExprID) {
    let key: Int
    switch program.variable(of: node) {
    case .global(let global): key = Int(global.index)
    case .local(let local):
      guard arrayParameters.contains(Int(local.index)) else { return }  // a fresh local array
      key = -1
    }
    let known = result.storedElements[key]
    result.storedElements[key] = known.map { Self.join($0, stored) } ?? stored
  }

  // MARK: - Expressions

  private mutating func evaluate(_ id: ExprID) throws -> Whole? {
    steps += 1
    if steps > stepLimit { throw OutOfBudget() }
    switch tree[id] {
    case .number(let value):
      return Self.literal(value)
    case .variable:
      switch program.variable(of: id) {
      case .local(let local): return facts[Int(local.index)]
      case .global(let global):
        // An array global's slot holds its elements' fact, not a value (it is an argument here).
        guard Int(global.index) < globals.count, program.globals.symbols[Int(global.index)].kind == .number else {
          return nil
        }
        return globals[Int(global.index)]
      }
    case .unary(_, let operand):
      let fact = try evaluate(operand)
      guard program.callee(of: id) == nil, let fact else { return nil }
      // -0 is the negation of 0; a negated literal other than 0 (`-1`) is not zero at all.
      let nonzeroLiteral = if case .number(let value) = tree[operand] { value != 0 } else { false }
      return Whole(
        bits: fact.bits, sign: fact.bits == 0 ? .nonNegative : .any, mayBeNegativeZero: !nonzeroLiteral)
    case .binary:
      return try evaluateBinaryChain(id)
    case .assign(let target, let value):
      let fact = try evaluate(value)
      if case .local(let local) = program.variable(of: target) {
        assign(local, fact, byStep: ExactArithmetic.isUnitStep(value, of: local, in: program))
      }
      return fact
    case .call(_, let list):
      try evaluateCall(id, arguments: tree.arguments(list))
      return nil
    case .ifElse(let condition, let then, let otherwise):
      let bound = try evaluateCondition(condition)
      let before = facts
      if let bound { facts[Int(bound.local.index)] = bound.fact }
      let thenFact = try evaluate(then)
      let afterThen = facts
      facts = before
      let elseFact = try evaluate(otherwise)
      facts = zip(afterThen, facts).map { Self.join($0, $1) }
      return Self.join(thenFact, elseFact)
    case .loop(let index):
      try evaluateLoop(tree.loop(index), at: id)
      return Self.literal(0)
    case .varIn(let index):
      let varIn = tree.varIn(index)
      try evaluateBindings(tree.bindings(varIn.bindings), locals: Array(program.bindingLocals(of: varIn)))
      return try evaluate(varIn.body)
    case .element(_, let index):
      let fact = try evaluate(index)
      checked(id, index: index, fact: fact, assignmentsBefore: local(index).map { assignments[Int($0.index)] })
      guard case .global(let global) = program.variable(of: id), Int(global.index) < globals.count else { return nil }
      return globals[Int(global.index)]
    case .storeElement(_, let index, let value):
      let fact = try evaluate(index)
      let before = local(index).map { assignments[Int($0.index)] }
      let stored = try evaluate(value)
      checked(id, index: index, fact: fact, assignmentsBefore: before)
      if recording { recordStore(stored, at: id) }
      return stored
    case .length:
      return .index
    case .arrayLiteral(let list):
      for element in tree.arguments(list) { _ = try evaluate(element) }
      return nil
    case .string, .error:
      return nil
    case .globalDeclaration(let index):
      try evaluateBindings(tree.bindings(tree.globalDeclaration(index)), locals: nil)
      return Self.literal(0)
    }
  }

  /// A chain of binary operators, walked without recursing on the left operands (as the IR
  /// generator does), so a long chain cannot exhaust the stack.
  private mutating func evaluateBinaryChain(_ id: ExprID) throws -> Whole? {
    var spine: [ExprID] = []
    var current = id
    while case .binary(_, let lhs, _) = tree[current] {
      spine.append(current)
      current = lhs
    }
    var fact = try evaluate(current)
    while let node = spine.popLast() {
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      let right = try evaluate(rhs)
      fact = program.callee(of: node) == nil ? Self.combine(op, fact, right) : nil
    }
    return fact
  }

  /// A condition; when it is `v < e` with `v` a local known whole and not negative, and `e`
  /// known below 2^k, what `v` is known to be where the condition held: below 2^k too.
  private mutating func evaluateCondition(_ id: ExprID) throws -> (local: LocalID, fact: Whole)? {
    guard case .binary(let op, let lhs, let rhs) = tree[id], op == UInt8(ascii: "<"), program.callee(of: id) == nil,
      let local = local(lhs)
    else {
      _ = try evaluate(id)
      return nil
    }
    let value = facts[Int(local.index)]
    let assignmentsBefore = assignments[Int(local.index)]
    let limit = try evaluate(rhs)
    guard let value, value.sign == .nonNegative, let limit, assignments[Int(local.index)] == assignmentsBefore
    else { return nil }
    return (
      local,
      Whole(bits: min(value.bits, limit.bits), sign: .nonNegative, mayBeNegativeZero: value.mayBeNegativeZero)!
    )
  }

  private mutating func evaluateCall(_ id: ExprID, arguments: ExprIDs) throws {
    var whole: UInt64 = 0
    for (position, argument) in arguments.enumerated() {
      let fact = try evaluate(argument)
      if let fact, fact.sign == .nonNegative, fact.bits <= Whole.counter.bits, position < 64 { whole |= 1 << position }
    }
    guard recording, whole != 0, let callee = program.callee(of: id), program.functions[callee].origin == .defined
    else { return }
    result.wholeArguments[id] = whole
  }

  /// The bindings of a `var` (`locals` parallel to them) or, without locals, of globals.
  private mutating func evaluateBindings(_ bindings: ArraySlice<VarBinding>, locals: [LocalID]?) throws {
    for (offset, binding) in bindings.enumerated() {
      switch binding.value {
      case .number(let initializer):
        let fact = try initializer.map { try evaluate($0) } ?? Self.literal(0)
        if let locals { assign(locals[offset], fact) }
      case .zeros(let count):
        _ = try evaluate(count)
      case .elements(let literal):
        _ = try evaluate(literal)
      }
    }
  }

  /// A loop, walked until the facts at its top are stable. A fact that changes between walks
  /// is widened to the next of a few bounds, so a local changes at most four times.
  private mutating func evaluateLoop(_ loop: Loop, at node: ExprID) throws {
    switch loop {
    case .forLoop(let parts): assign(program.loopVariable(of: node), try evaluate(parts.start))
    case .whileLoop: break
    }
    let outerRecording = recording
    recording = false
    var top = facts
    while true {
      facts = top
      _ = try iteration(of: loop, at: node)
      let next = zip(top, facts).map { Self.join($0, $1) }
      if next == top { break }
      top = zip(top, next).map { $0 == $1 ? $0 : Self.widen($1) }
    }
    recording = outerRecording
    facts = top
    facts = try iteration(of: loop, at: node)
  }

  /// One iteration from the top of the loop, leaving the facts of its way back to the top;
  /// returns the facts where the loop exits.
  private mutating func iteration(of loop: Loop, at node: ExprID) throws -> [Whole?] {
    switch loop {
    case .forLoop(let parts):
      let variable = program.loopVariable(of: node)
      switch forSemantics {
      case .current:
        // while end != 0 { body; i = i + step }
        let exit = try preTestedIteration(condition: parts.end) { analysis in
          _ = try analysis.evaluate(parts.body)
          let step = try parts.step.map { try analysis.evaluate($0) } ?? Self.literal(1)
          analysis.assign(variable, Self.combine(UInt8(ascii: "+"), analysis.facts[Int(variable.index)], step))
        }
        return exit
      case .legacy:
        // loop { body; s = step; c = end; i = i + s; if c == 0 { break } }
        _ = try evaluate(parts.body)
        let step = try parts.step.map { try evaluate($0) } ?? Self.literal(1)
        _ = try evaluate(parts.end)
        assign(variable, Self.combine(UInt8(ascii: "+"), facts[Int(variable.index)], step))
        return facts
      }
    case .whileLoop(let parts):
      return try preTestedIteration(condition: parts.condition) { analysis in _ = try analysis.evaluate(parts.body) }
    }
  }

  /// `while condition != 0 { rest }`: the facts where the loop exits; what the condition
  /// proves holds in `rest`.
  private mutating func preTestedIteration(condition: ExprID, rest: (inout Self) throws -> Void) throws -> [Whole?] {
    let bound = try evaluateCondition(condition)
    let exit = facts
    if let bound { facts[Int(bound.local.index)] = bound.fact }
    try rest(&self)
    return exit
  }
}
