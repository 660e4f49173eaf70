import TestSupport

/// Generates well-formed Kaleidoscope programs that terminate, for differential testing.
///
/// Every construct appears: user-defined unary and binary operators (with random
/// precedences), functions calling earlier functions, nested `if`s and `for` loops, `var`s
/// with shadowing, assignment, externs (`printd`, `putchard`, `sqrt`, `fabs`), and IEEE edge
/// cases (division by zero, NaN, infinities, negative zero, overflow).
///
/// Termination by construction: a function calls only functions defined before it (no
/// recursion), every loop is `for v = start, v < limit, step in ...` with a positive
/// constant step and a body that cannot assign `v`, and a cost model (evaluation steps,
/// multiplied by enclosing loops' trip counts) bounds the work of every body.
struct ProgramGenerator {
  private var random: SplitMix64
  private var lines: [String] = []
  /// Callable functions so far: name, arity, and evaluation cost of one call.
  private var functions: [(name: String, arity: Int, cost: Int)] = []
  private var unaryOperators: [(op: Character, cost: Int)] = []
  private var binaryOperators: [(op: Character, cost: Int)] = []
  /// Variables in scope, innermost last; loop variables cannot be assigned.
  private var scope: [(name: String, assignable: Bool)] = []
  private var nameCounter = 0
  /// The cost of the body being generated, and its limit.
  private var cost = 0
  private var budget = 0

  static let bodyBudget = 3_000
  static let topLevelBudget = 20_000

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  /// A whole program: externs, operators, functions, then top-level expressions.
  mutating func program() -> String {
    lines = ["extern printd(x)", "extern putchard(c)", "extern sqrt(x)", "extern fabs(x)"]
    functions = [("printd", 1, 2), ("sqrt", 1, 1), ("fabs", 1, 1)]
    for op in ["!", "~"].shuffled(using: &random).prefix(chance(2, of: 3) ? 2 : 1) {
      defineUnary(Character(op))
    }
    for op in ["|", "&", ">", "^", "@", "$"].shuffled(using: &random).prefix(pick(1...3)) {
      defineBinary(Character(op))
    }
    for index in 0..<pick(2...6) {
      defineFunction(named: "f\(index)")
    }
    for _ in 0..<pick(2...6) {
      topLevel()
    }
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
    let parameters = (0..<pick(0...3)).map { "p\($0)" }
    begin(parameters: parameters, budget: Self.bodyBudget)
    let body = expression(depth: 4)
    let separator = chance(1, of: 2) ? ", " : " "
    lines.append("def \(name)(\(parameters.joined(separator: separator))) \(body)")
    functions.append((name, parameters.count, cost + 1))
  }

  private mutating func topLevel() {
    begin(parameters: [], budget: Self.topLevelBudget)
    if chance(1, of: 4) {
      lines.append("putchard(\(pick(65...90))); putchard(10)")
      return
    }
    // Mostly calls of the program's own functions, so that their bodies run.
    lines.append(chance(2, of: 3) ? call(depth: 4, multiplier: 1, preferDefined: true) : expression(depth: 4))
  }

  private mutating func begin(parameters: [String], budget: Int) {
    scope = parameters.map { ($0, true) }
    cost = 0
    self.budget = budget
  }

  // MARK: - Expressions

  /// An expression, fully parenthesised so that operator precedences cannot change its
  /// meaning; `depth` bounds nesting.
  private mutating func expression(depth: Int, multiplier: Int = 1) -> String {
    cost += multiplier
    if depth == 0 || chance(1, of: 4) { return leaf() }
    switch pick(0...11) {
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
      if let target = scope.filter(\.assignable).randomElement(using: &random) {
        return "(\(target.name) = \(expression(depth: depth - 1, multiplier: multiplier)))"
      }
      return leaf()
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
    scope.append((variable, false))
    let body = expression(depth: depth - 1, multiplier: multiplier * trips)
    scope.removeLast()
    return "(for \(variable) = \(start), \(variable) < \(limit)\(step) in \(body))"
  }

  private mutating func varIn(depth: Int, multiplier: Int) -> String {
    var bindings: [String] = []
    let count = pick(1...2)
    for _ in 0..<count {
      // Shadow an outer name now and then.
      let name = !scope.isEmpty && chance(1, of: 4) ? scope.randomElement(using: &random)!.name : freshName("v")
      if chance(1, of: 5) {
        bindings.append(name)
      } else {
        bindings.append("\(name) = \(expression(depth: depth - 1, multiplier: multiplier))")
      }
      scope.append((name, true))
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
    let arguments = (0..<function.arity).map { _ in expression(depth: depth - 1, multiplier: multiplier) }
    return "\(function.name)(\(arguments.joined(separator: ", ")))"
  }

  private mutating func leaf() -> String {
    if !scope.isEmpty && chance(3, of: 5) { return scope.randomElement(using: &random)!.name }
    return ["0", "1", "2", "3", "0.5", "0.1", "10", "1e300", "1e-300", "123456.789", "7"].randomElement(using: &random)!
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
