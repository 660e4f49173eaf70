/// Generates well-formed Kaleidoscope programs that terminate, for differential testing.
///
/// Every construct appears: user-defined unary and binary operators (with random
/// precedences), functions calling earlier functions, nested `if`s, `for` and `while` loops, `var`s
/// with shadowing, assignment, externs (`printd`, `putchard`, `sqrt`, `fabs`, `getchard`,
/// `readd`), IEEE edge cases (division by zero, NaN, infinities, negative zero, overflow),
/// and data (SPEC §5): globals declared before and after the functions that use them (so
/// some are read before their declaration runs), global and local arrays of zeros, of
/// literals and of strings, array parameters, element reads and writes, and `len`.
///
/// Array accesses are guarded (`if k < len(a) then a[k] else ...`), except in one program
/// in four (`allowsFaults`), where indices and sizes are any expression: those programs
/// usually stop at a located runtime error, on which every engine must agree too.
///
/// Termination by construction: a function calls only functions defined before it (no
/// recursion), every loop is `for v = start, v < limit, step in ...` or its `while` twin
/// `var v = start in while v < limit in (body) + (v = v + step)` (whose limit is sometimes
/// `limit + 0.5`, which no analysis knows whole, so that a count stepped by one is a
/// stepped local rather than an integral one), with a positive
/// constant step and a body that cannot assign `v`, and a cost model (evaluation steps,
/// multiplied by enclosing loops' trip counts) bounds the work of every body.
public struct ProgramGenerator {
  private var random: SplitMix64
  private var lines: [String] = []
  /// Callable functions so far: name, whether each parameter is an array, and the
  /// evaluation cost of one call.
  private var functions: [(name: String, arrays: [Bool], cost: Int)] = []
  private var unaryOperators: [(op: Character, cost: Int)] = []
  private var binaryOperators: [(op: Character, cost: Int)] = []
  /// Variables in scope, innermost last.
  private var scope: [Variable] = []
  /// Every global of the program, declared in two batches (`declareGlobals`).
  private var globals: [Variable] = []
  /// Whether indices and array sizes may be anything (see above).
  public let allowsFaults: Bool
  /// What the program reads on standard input.
  public private(set) var input = ""
  private var nameCounter = 0
  /// The cost of the body being generated, and its limit.
  private var cost = 0
  private var budget = 0

  static let bodyBudget = 3_000
  static let topLevelBudget = 20_000

  public init(seed: UInt64) {
    random = SplitMix64(seed: seed)
    allowsFaults = seed % 4 == 3
  }

  /// A variable in scope: loop variables cannot be assigned; arrays are indexed.
  struct Variable {
    var name: String
    var assignable = true
    var isArray = false
  }

  /// A whole program: externs, operators, functions, then top-level expressions.
  public mutating func program() -> String {
    lines = [
      "extern printd(x)", "extern putchard(c)", "extern sqrt(x)", "extern fabs(x)", "extern getchard()", "extern readd()",
    ]
    functions = [("printd", [false], 2), ("sqrt", [false], 1), ("fabs", [false], 1), ("getchard", [], 1)]
    input =
      (0..<pick(0...12)).map { _ in ["1", "-2.5", "3e2", ".5", "42"].randomElement(using: &random)! }
      .joined(separator: " ") + (chance(1, of: 2) ? " tail text\n" : "\n")
    globals = (0..<pick(1...5)).map { index in
      chance(1, of: 2) ? Variable(name: "g\(index)") : Variable(name: "ga\(index)", isArray: true)
    }
    let firstBatch = globals.prefix(pick(0...globals.count))
    for op in ["!", "~"].shuffled(using: &random).prefix(chance(2, of: 3) ? 2 : 1) {
      defineUnary(Character(op))
    }
    for op in ["|", "&", ">", "^", "@", "$"].shuffled(using: &random).prefix(pick(1...3)) {
      defineBinary(Character(op))
    }
    declareGlobals(firstBatch)
    for index in 0..<pick(2...6) {
      defineFunction(named: "f\(index)")
    }
    let topLevels = pick(2...6)
    let secondBatchAt = pick(0...topLevels)
    for index in 0..<topLevels {
      // The rest of the globals after some top-level expressions: those before it read them
      // as 0 and as empty arrays.
      if index == secondBatchAt { declareGlobals(globals[firstBatch.count...]) }
      topLevel()
    }
    if secondBatchAt == topLevels { declareGlobals(globals[firstBatch.count...]) }
    // Newlines do not end expressions (`f(x) x` then `(1)` is the call `x(1)`), so every
    // item ends with `;`.
    return lines.map { "\($0);\n" }.joined()
  }

  // MARK: - Items

  private mutating func defineUnary(_ op: Character) {
    begin(parameters: ["v"], budget: 40)
    let body = expression(depth: 2)
    lines.append("def unary\(op)(v) \(body)")
    unaryOperators.append((op, cost + 1))
  }

  private mutating func defineBinary(_ op: Character) {
    begin(parameters: ["a", "b"], budget: 60)
    let body = expression(depth: 2)
    lines.append("def binary\(op) \(pick(1...60)) (a b) \(body)")
    binaryOperators.append((op, cost + 1))
  }

  private mutating func defineFunction(named name: String) {
    let arrays = (0..<pick(0...3)).map { _ in chance(1, of: 4) }
    let parameters = arrays.enumerated().map { Variable(name: $1 ? "pa\($0)" : "p\($0)", isArray: $1) }
    begin(scope: parameters, budget: Self.bodyBudget)
    let body = expression(depth: 4)
    let separator = chance(1, of: 2) ? ", " : " "
    let written = parameters.map { $0.isArray ? "\($0.name)[]" : $0.name }
    lines.append("def \(name)(\(written.joined(separator: separator))) \(body)")
    functions.append((name, arrays, cost + 1))
  }

  /// `var g0 = ..., ga1[3]`: numbers, arrays of zeros, of literals, of strings.
  private mutating func declareGlobals(_ batch: ArraySlice<Variable>) {
    guard !batch.isEmpty else { return }
    begin(scope: [], budget: 200)
    let bindings = batch.map { binding($0.name, isArray: $0.isArray, depth: 1, multiplier: 1) }
    lines.append("var " + bindings.joined(separator: ", "))
  }

  private mutating func topLevel() {
    begin(parameters: [], budget: Self.topLevelBudget)
    if chance(1, of: 4) {
      lines.append("putchard(\(pick(65...90))); putchard(10)")
      return
    }
    // Mostly calls of the program's own functions, so that their bodies run.
    if chance(1, of: 6) {
      lines.append("readd()")
      return
    }
    lines.append(chance(2, of: 3) ? call(depth: 4, multiplier: 1, preferDefined: true) : expression(depth: 4))
  }

  private mutating func begin(parameters: [String] = [], budget: Int) {
    begin(scope: parameters.map { Variable(name: $0) }, budget: budget)
  }

  private mutating func begin(scope: [Variable], budget: Int) {
    self.scope = scope
    cost = 0
    self.budget = budget
  }

  // MARK: - Expressions

  /// An expression, fully parenthesised so that operator precedences cannot change its
  /// meaning; `depth` bounds nesting.
  private mutating func expression(depth: Int, multiplier: Int = 1) -> String {
    cost += multiplier
    if depth == 0 || chance(1, of: 4) { return leaf() }
    switch pick(0...15) {
    case 0:
      return "(-\(expression(depth: depth - 1, multiplier: multiplier)))"
    case 1:
      if let (op, opCost) = unaryOperators.randomElement(using: &random), affordable(opCost * multiplier) {
        cost += opCost * multiplier
        return "\(op)(\(expression(depth: depth - 1, multiplier: multiplier)))"
      }
      return leaf()
    case 2, 3:
      let op = ["+", "-", "*", "/", "<"].randomElement(using: &random)!
      return binary(op, depth: depth, multiplier: multiplier)
    case 4:
      if let (op, opCost) = binaryOperators.randomElement(using: &random), affordable(opCost * multiplier) {
        cost += opCost * multiplier
        return binary(String(op), depth: depth, multiplier: multiplier)
      }
      return leaf()
    case 5:
      let condition = expression(depth: depth - 1, multiplier: multiplier)
      let then = expression(depth: depth - 1, multiplier: multiplier)
      let otherwise = expression(depth: depth - 1, multiplier: multiplier)
      return "(if \(condition) then \(then) else \(otherwise))"
    case 6:
      return loop(depth: depth, multiplier: multiplier)
    case 7:
      return varIn(depth: depth, multiplier: multiplier)
    case 8:
      if let target = numbers().filter(\.assignable).randomElement(using: &random) {
        return "(\(target.name) = \(expression(depth: depth - 1, multiplier: multiplier)))"
      }
      return leaf()
    case 12, 13:
      return element(depth: depth, multiplier: multiplier, storing: chance(1, of: 2))
    case 14:
      return arrays().randomElement(using: &random).map { "len(\($0.name))" } ?? leaf()
    default:
      return call(depth: depth, multiplier: multiplier)
    }
  }

  private mutating func binary(_ op: String, depth: Int, multiplier: Int) -> String {
    let lhs = expression(depth: depth - 1, multiplier: multiplier)
    let rhs = expression(depth: depth - 1, multiplier: multiplier)
    return "(\(lhs) \(op) \(rhs))"
  }

  private mutating func loop(depth: Int, multiplier: Int) -> String {
    let variable = freshName("i")
    let start = ["0", "1", "-1", "0.5"].randomElement(using: &random)!
    let limit = pick(0...4)
    let step = ["", ", 1", ", 0.5", ", 2"].randomElement(using: &random)!
    // At most (limit - start) / step + 1 iterations, plus one for the legacy loop.
    let trips = 2 * (limit + 1) + 2
    guard affordable(trips * multiplier) else { return leaf() }
    scope.append(Variable(name: variable, assignable: false))
    let body = expression(depth: depth - 1, multiplier: multiplier * trips)
    scope.removeLast()
    guard chance(1, of: 3) else { return "(for \(variable) = \(start), \(variable) < \(limit)\(step) in \(body))" }
    // The body's value is added and thrown away with the loop's; `while` has no value of its own.
    let increment = "\(variable) = \(variable) + \(step.isEmpty ? "1" : String(step.dropFirst(2)))"
    let bound = chance(1, of: 2) ? "\(limit) + 0.5" : "\(limit)"
    return "(var \(variable) = \(start) in (while \(variable) < \(bound) in (\(body)) + (\(increment))))"
  }

  private mutating func varIn(depth: Int, multiplier: Int) -> String {
    var bindings: [String] = []
    let count = pick(1...2)
    for _ in 0..<count {
      // Shadow an outer name now and then.
      let isArray = chance(1, of: 4)
      let name = !scope.isEmpty && chance(1, of: 4) ? scope.randomElement(using: &random)!.name : freshName(isArray ? "va" : "v")
      bindings.append(binding(name, isArray: isArray, depth: depth, multiplier: multiplier))
      scope.append(Variable(name: name, isArray: isArray))
    }
    let body = expression(depth: depth - 1, multiplier: multiplier)
    scope.removeLast(count)
    return "(var \(bindings.joined(separator: ", ")) in \(body))"
  }

  private mutating func call(depth: Int, multiplier: Int, preferDefined: Bool = false) -> String {
    var candidates = functions.filter { affordable($0.cost * multiplier) }
    if preferDefined, candidates.contains(where: { $0.name.hasPrefix("f") && $0.name != "fabs" }) {
      candidates.removeAll { !$0.name.hasPrefix("f") || $0.name == "fabs" }
    }
    guard let function = candidates.randomElement(using: &random) else { return leaf() }
    cost += function.cost * multiplier
    let arguments = function.arrays.map { isArray in
      isArray ? arrayArgument(depth: depth, multiplier: multiplier) : expression(depth: depth - 1, multiplier: multiplier)
    }
    return "\(function.name)(\(arguments.joined(separator: ", ")))"
  }

  private mutating func leaf() -> String {
    let numbers = numbers()
    if !numbers.isEmpty && chance(3, of: 5) { return numbers.randomElement(using: &random)!.name }
    return ["0", "1", "2", "3", "0.5", "0.1", "10", "1e300", "1e-300", "123456.789", "7"].randomElement(using: &random)!
  }

  // MARK: - Data

  /// The number variables visible here: the scope's, then the globals it does not shadow.
  private func numbers() -> [Variable] { visible().filter { !$0.isArray } }
  private func arrays() -> [Variable] { visible().filter(\.isArray) }

  private func visible() -> [Variable] {
    var seen = Set<String>()
    return (scope.reversed() + globals).filter { seen.insert($0.name).inserted }
  }

  /// One binding of a `var`: a number, an array of zeros, of a literal's values or of a
  /// string's bytes.
  private mutating func binding(_ name: String, isArray: Bool, depth: Int, multiplier: Int) -> String {
    guard isArray else {
      return chance(1, of: 5) ? name : "\(name) = \(expression(depth: depth - 1, multiplier: multiplier))"
    }
    cost += 6 * multiplier
    switch pick(0...2) {
    case 0:
      let size = allowsFaults && chance(1, of: 3) ? expression(depth: depth - 1, multiplier: multiplier) : "\(pick(0...5))"
      return "\(name)[\(size)]"
    case 1:
      return "\(name)[] = \(arrayLiteral(depth: depth, multiplier: multiplier))"
    default:
      return "\(name)[] = \(string())"
    }
  }

  /// What is passed for an array parameter: an array's name, a literal or a string.
  private mutating func arrayArgument(depth: Int, multiplier: Int) -> String {
    cost += 6 * multiplier
    if let array = arrays().randomElement(using: &random), chance(2, of: 3) { return array.name }
    return chance(1, of: 2) ? arrayLiteral(depth: depth, multiplier: multiplier) : string()
  }

  private mutating func arrayLiteral(depth: Int, multiplier: Int) -> String {
    "[" + (0..<pick(0...4)).map { _ in expression(depth: depth - 1, multiplier: multiplier) }.joined(separator: ", ") + "]"
  }

  /// An element of some array, a global one if there is one, or 0 if there is none: an
  /// index that reads an array (only a global array can keep integers).
  private mutating func elementAsIndex() -> String {
    let globals = arrays().filter { $0.name.hasPrefix("ga") }
    guard let array = (globals.isEmpty ? arrays() : globals).randomElement(using: &random) else { return "0" }
    return "(if 0 < len(\(array.name)) then \(array.name)[0] else 0)"
  }

  /// A whole number: small, negative, or at the edge of what an integer array keeps.
  private mutating func wholeNumber() -> String {
    ["0", "1", "7", "255", "(-3)", "4503599627370495", "4503599627370496"].randomElement(using: &random)!
  }

  private mutating func string() -> String {
    ["\"\"", "\"a\"", "\"hi\\n\"", "\"tab\\there\"", "\"\\x41\\\\\\\"\\0\"", "\"é\""].randomElement(using: &random)!
  }

  /// An element read or write. Guarded by the array's length unless `allowsFaults`.
  private mutating func element(depth: Int, multiplier: Int, storing: Bool) -> String {
    guard let array = arrays().randomElement(using: &random) else { return leaf() }
    // A whole number a third of the time, so that some arrays hold only whole numbers and
    // are kept as integers (`WholeIndexAnalysis.integerArrays`).
    let stored = chance(1, of: 3) ? wholeNumber() : expression(depth: depth - 1, multiplier: multiplier)
    let value = storing ? " = \(stored)" : ""
    if allowsFaults {
      // A number variable half the time: what the IR generator's proofs of whole indices,
      // and its copies of functions called with them, reason about.
      let variable = chance(1, of: 2) ? numbers().randomElement(using: &random)?.name : nil
      // Now and then a step off it, at the edges of the ranges that the IR generator proves
      // indices in bounds with (`IRGenerator+IndexRanges.swift`).
      let offset = chance(1, of: 3) ? " \(["+", "-"].randomElement(using: &random)!) \(pick(1...2))" : ""
      let index = variable.map { "(\($0)\(offset))" } ?? expression(depth: depth - 1, multiplier: multiplier)
      return "(\(array.name)[\(index)]\(value))"
    }
    // An element of an array a third of the time: an index read from an array, which an
    // array kept as integers gives without a conversion.
    let index = chance(1, of: 3) ? elementAsIndex() : "\(pick(0...3))"
    let otherwise = expression(depth: depth - 1, multiplier: multiplier)
    return "(if \(index) < len(\(array.name)) then \(array.name)[\(index)]\(value) else \(otherwise))"
  }

  // MARK: - Helpers

  private func affordable(_ extra: Int) -> Bool { cost + extra <= budget }

  private mutating func freshName(_ prefix: String) -> String {
    nameCounter += 1
    return "\(prefix)\(nameCounter)"
  }

  private mutating func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  private mutating func chance(_ numerator: Int, of denominator: Int) -> Bool {
    Int.random(in: 0..<denominator, using: &random) < numerator
  }
}
