import Foundation
import KaleidoscopeFrontend
import Testing

@testable import KaleidoscopeBackend

/// `WholeIndexAnalysis` proves an index whole (and how it converts) only when every
/// execution gives a whole number that converts exactly. Each case lists, for the element
/// accesses of `f` in source order, what is proved: `+` whole and not negative (unsigned
/// conversion), `±` whole (signed), `?` nothing (the full check stays).
@Suite("Whole indices")
struct WholeIndexAnalysisTests {
  /// A function of the program, the bits of the parameters passed whole, and what each access
  /// proves.
  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let function: String
    var parameters: UInt64 = 0
    let expected: String
  }

  /// Every case's program starts with these: an array, a number global and a sequence operator.
  static let prelude = "var a[100], g = 1\ndef binary : 1 (x y) y\n"

  static let cases: [Case] = [
    Case(testDescription: "a counter from 0 by 1", function: "def f() for i = 0, i < 10 in a[i] = i", expected: "+"),
    Case(testDescription: "a counter by a fraction", function: "def f() for i = 0, i < 10, 0.5 in a[i]", expected: "?"),
    Case(
      testDescription: "a parameter, then it again and its successor", function: "def f(i) a[i] + a[i] + a[i + 1]",
      expected: "?++"),
    Case(testDescription: "a predecessor may be negative", function: "def f(i) a[i] : a[i - 1]", expected: "?±"),
    Case(testDescription: "an assignment forgets the check", function: "def f(i) a[i] : (i = i / 2) : a[i]", expected: "??"),
    Case(
      testDescription: "a store whose value assigns its index", function: "def f(i) (a[i] = (i = 0.5)) : a[i]",
      expected: "??"),
    Case(
      testDescription: "only what both branches checked", function: "def f(i, j) (if g then a[i] + a[j] else a[i]) : a[i] + a[j]",
      expected: "???+?"),
    Case(testDescription: "a square fits, a cube does not", function: "def f(i) a[i] : a[i * i] + a[i * i * i]", expected: "?+?"),
    Case(testDescription: "globals can change in any call", function: "def f() a[g]", expected: "?"),
    Case(testDescription: "an operator's result is unknown", function: "def f() a[1 : 2]", expected: "?"),
    Case(testDescription: "a quotient may have a fraction", function: "def f() a[4 / 2]", expected: "?"),
    Case(testDescription: "the last element", function: "def f() a[len(a) - 1]", expected: "±"),
    Case(testDescription: "a comparison is 0 or 1", function: "def f(x) a[x < 2]", expected: "+"),
    Case(testDescription: "a literal too large to convert", function: "def f() a[2e19] : a[1e19] : a[-9e18]", expected: "?+±"),
    Case(testDescription: "a negative literal", function: "def f() a[-3]", expected: "±"),
    Case(
      testDescription: "a value that grows in a loop is dropped",
      function: "def f() var k = 1 in (for i = 0, i < 100 in k = k * 3) : a[k]", expected: "?"),
    Case(
      testDescription: "a pointer stepped by 1 with no check stays whole",
      function: "def f(n) var p = 0 in for i = 0, i < n in (if g then p = p + 1 else p = p - 1) : a[p]", expected: "±"),
    Case(
      testDescription: "a pointer stepped by 511 stays whole, by 512 it may not",
      function:
        "def f(n) var p = 0, q = 0 in (for i = 0, i < n in if g then (p = p + 511) : (q = q + 512) else (p = p - 511) : (q = q - 512)) : a[p] + a[q]",
      expected: "±?"),
    Case(
      testDescription: "a pointer stepped by a fraction or an unknown",
      function: "def f(n, s) var p = 0, q = 0 in for i = 0, i < n in (p = p + 0.5) : (q = q - s) : a[p] + a[q]",
      expected: "??"),
    Case(
      testDescription: "a stride from a checked square",
      function: "def f(n) for i = 2, i < n in if a[i] then 0 else for j = i * i, j < n, i in a[j] = 1",
      expected: "++"),
    Case(testDescription: "a counter below an unknown bound", function: "def f(n) for i = 0, i < n in a[i * i]", expected: "?"),
    Case(testDescription: "a counter below a length", function: "def f() for i = 0, i < len(a) in a[i * i]", expected: "+"),
    Case(testDescription: "a bound says nothing of a fraction", function: "def f(x) if x < 10 then a[x] else 0", expected: "?"),
    Case(
      testDescription: "a bound holds only where its condition did",
      function: "def f(i) a[i] : (if i < 5 then a[i * i * i] else a[i * i * i])", expected: "?+?"),
    Case(
      testDescription: "parameters the caller vouches for", function: "def f(i, x) a[2 * i + 1] + a[x]", parameters: 1,
      expected: "+?"),
  ]

  @Test(arguments: cases)
  func proves(_ testCase: Case) throws {
    let proved = try Self.proved(Self.prelude + testCase.function, parameters: testCase.parameters)
    #expect(proved == testCase.expected)
  }

  /// A call passes a known index only where the argument is one; the IR generator makes a
  /// copy of the callee from that.
  @Test func callsPassKnownIndices() throws {
    let (program, body) = try Self.function(Self.prelude + "def h(i, x, j) 0\ndef f(i) a[i] : h(i, 0.5, 3)")
    let facts = WholeIndexAnalysis.analyze(body, in: program, forSemantics: .current)
    #expect(Array(facts.wholeArguments.values) == [0b101])
  }

  /// The rounding behind `sumBits`: at each bound 2^B a pointer can reach, adding a whole
  /// number below 2^(B-54) to the largest double under 2^B (or taking it away from the
  /// most negative) stays under 2^B in magnitude, and adding 2^(B-54) reaches it.
  @Test(arguments: 54...64)
  func sumsStopBelowTheLargerBound(_ bound: Int) {
    let limit = Double(sign: .plus, exponent: bound, significand: 1)
    let largest = limit.nextDown
    let below = Double(sign: .plus, exponent: bound - 54, significand: 1).nextDown.rounded(.down)
    let reaching = Double(sign: .plus, exponent: bound - 54, significand: 1)
    #expect(WholeIndexAnalysis.sumBits(bound, max(0, bound - 54)) == bound)
    #expect(WholeIndexAnalysis.sumBits(bound, bound - 53) == bound + 1)
    #expect((largest + below).magnitude < limit && (-largest - below).magnitude < limit)
    #expect(largest + reaching == limit && -largest - reaching == -limit)
  }

  /// Loops nested deeply enough to exhaust the budget prove nothing rather than hang.
  @Test func deepLoopsGiveUp() throws {
    var loops = "a[k]"
    for depth in 0..<14 { loops = "for i\(depth) = 0, i\(depth) < 2 in (k = k + 1) : \(loops)" }
    let (program, body) = try Self.function(Self.prelude + "def f() var k = 0 in " + loops)
    let facts = WholeIndexAnalysis.analyze(body, in: program, forSemantics: .current)
    #expect(facts.wholeIndices.isEmpty)
  }

  /// One module's walks share a budget of one walk's worth and a few walks per node: once
  /// functions have spent it, later bodies prove nothing (their checks keep the fraction test) rather than make
  /// compiling slow.
  @Test func aModuleSharesOneBudget() throws {
    var loops = "a[k]"
    for depth in 0..<14 { loops = "for i\(depth) = 0, i\(depth) < 2 in (k = k + 1) : \(loops)" }
    // The second access is proved only by the analysis (`i` passed the first check); a
    // literal index would need none (integer indices, IRGenerator+IntegerCounters).
    let last = "def last(i) a[i] + a[i]\nlast(1)"
    let alone = try IRCase.unoptimizedIR(Self.prelude + last, selection: .all)
    let afterDeepLoops = try IRCase.unoptimizedIR(
      Self.prelude + "def deep() var k = 0 in \(loops)\ndef deeper() var k = 0 in \(loops)\n" + last, selection: .all)
    #expect(Self.body(of: "last", in: alone).components(separatedBy: "fcmp oeq").count - 1 == 1)
    #expect(Self.body(of: "last", in: afterDeepLoops).components(separatedBy: "fcmp oeq").count - 1 == 2)
  }

  /// The text of a function's definition in `ir`.
  /// A whole program's number globals that nothing assigns are known from their literal
  /// initialisers (and 0, before the declaration runs); anything else about a global is not.
  static let globalCases: [Case] = [
    Case(testDescription: "a size never assigned", function: "var n = 60\ndef f() for i = 0, i < n in a[i * n]", expected: "+"),
    Case(testDescription: "a global with no initialiser is 0", function: "var z\ndef f() a[z]", expected: "+"),
    Case(testDescription: "assigned in another function", function: "var n = 6\ndef h() n = 0.5\ndef f() a[n]", expected: "?"),
    Case(testDescription: "assigned in the function itself", function: "var n = 6\ndef f() (n = 2.5) : a[n]", expected: "?"),
    Case(
      testDescription: "rewritten inside a loop", function: "var n = 6\ndef f() for i = 0, i < 3 in a[n] : (n = n + 0.5)",
      expected: "?"),
    Case(testDescription: "an initialiser that is not a literal", function: "var n = 6, m = n * 2\ndef f() a[m]", expected: "?"),
    Case(testDescription: "a fraction", function: "var n = 0.5\ndef f() a[n]", expected: "?"),
    Case(testDescription: "a negative initialiser is an operator", function: "var n = -3\ndef f() a[n]", expected: "?"),
    // A global array's elements: its initial values and every store, anywhere.
    Case(testDescription: "a string's bytes", function: "var s[] = \"ab\"\ndef f() a[s[1]]", expected: "++"),
    Case(testDescription: "a literal of whole numbers", function: "var p[] = [1, 2]\ndef f() a[p[0]]", expected: "++"),
    Case(testDescription: "a literal with a fraction", function: "var p[] = [1, 2.5]\ndef f() a[p[0]]", expected: "?+"),
    Case(testDescription: "a literal with an operator", function: "var p[] = [1 + 1]\ndef f() a[p[0]]", expected: "?+"),
    Case(
      testDescription: "zeros, then counters stored elsewhere",
      function: "var p[10]\ndef fill() for i = 0, i < 10 in p[i] = i\ndef f() a[p[3]]", expected: "++"),
    Case(
      testDescription: "positions copied from array to array",
      function: "var p[10], q[10]\ndef fill() for i = 0, i < 10 in (q[i] = p[i]) : (p[i] = i)\ndef f() a[q[3]]",
      expected: "++"),
    Case(
      testDescription: "a fraction stored in another function",
      function: "var p[10]\ndef fill() p[1] = 0.5\ndef f() a[p[3]]", expected: "?+"),
    Case(
      testDescription: "a fraction stored halfway through a loop",
      function: "var p[10]\ndef fill() for i = 0, i < 10 in p[i] = if i < 5 then i else i / 2\ndef f() a[p[3]]",
      expected: "?+"),
    // A top-level expression's body is known by its main token, here the `=` (differential
    // seed 182551: the store was missed, and the JIT indexed with a fraction).
    Case(
      testDescription: "a fraction stored at the top level, in an assignment",
      function: "var p[10], h\ndef f() a[p[3]]\nh = (p[0] = 0.5)\n", expected: "?+"),
    Case(
      testDescription: "a fraction stored through an array parameter that p is passed to",
      function: "var p[10]\ndef h(q[]) q[0] = 0.5\ndef pass() h(p)\ndef f() a[p[3]]", expected: "?+"),
    // Only an array passed to a function can be reached through a parameter.
    Case(
      testDescription: "a fraction stored through an array parameter that p is never passed to",
      function: "var p[10]\ndef h(q[]) q[0] = 0.5\ndef pass() h(\"s\")\ndef f() a[p[3]]", expected: "++"),
    Case(
      testDescription: "elements that grow without a bound",
      function: "var p[10]\ndef fill() for i = 0, i < 10 in p[0] = p[0] * 3 + 1\ndef f() a[p[0]]", expected: "?+"),
    Case(
      testDescription: "a local array's elements are not known",
      function: "def f() var p[3] in a[p[0]]", expected: "?+"),
  ]

  @Test(arguments: globalCases)
  func stableGlobals(_ test: Case) throws {
    #expect(try Self.proved(Self.prelude + test.function, parameters: 0, knowingGlobals: true) == test.expected)
  }

  /// The `var` locals that every assignment gives a whole number below 2^52, which the IR
  /// generator keeps in integers too.
  static let integralCases: [(function: String, integral: String)] = [
    ("def f() var i = 0 in while i < 100 in i = i + 1", "i"),
    // Nothing bounds `n`: `i` might pass 2^52, where a double stops counting by one.
    ("def f(n) var i = 0 in while i < n in i = i + 1", ""),
    // A checked index is below 2^32 until assigned.
    ("def f(n) var i = 0 in while i < n in a[i] : (i = i + 1)", "i"),
    ("def f() var i = 0, x in (while i < 10 in i = i + 1) : (x = i * 2)", "i x"),
    ("def f() var i = 0 in while i < 10 in i = i + 0.5", ""),
    ("def f() var x = 1 in for i = 0, i < 10 in x = x * 3", ""),
    ("def f(n) var x = n in x", ""),
    ("def f() var x = a[3] in x", ""),
    ("def f() var i = 0, j = 9 in while i < j in (a[i] = a[j]) : (i = i + 1) : (j = j - 1)", "i j"),
    ("def f() var k = 1 in (k = if k < 1 then 2 else 3) : (k = 2.5)", ""),
  ]

  @Test(arguments: integralCases)
  func integralLocals(_ test: (function: String, integral: String)) throws {
    #expect(try Self.locals(of: test.function) { $0.integralLocals } == test.integral)
  }

  /// The names of the locals of the prelude's `f` that `select` picks from its facts, in
  /// order, separated by spaces.
  static func locals(of function: String, _ select: (IndexFacts) -> Set<Int32>) throws -> String {
    let (program, body) = try Self.function(Self.prelude + function)
    let facts = WholeIndexAnalysis.analyze(body, in: program, forSemantics: .current)
    return select(facts).sorted().map { program.tree.text(body.locals[Int($0)].name) }.joined(separator: " ")
  }

  /// The integral locals below 2^31 that are never -0, which the IR generator reads from
  /// their 32-bit copy: an integer has no -0, so only a local no assignment can make -0.
  static let smallIntegralCases: [(function: String, small: String)] = [
    ("def f() var c = 3, d = 0 - 1, e = 2 * 3 in c", "c d e"),
    // Zero times a negative number is -0.
    ("def f() var c = 0 * (0 - 1) in c", ""),
    ("def f() var c = -0 in c", ""),
    // A negated literal other than 0 is not zero at all.
    ("def f() var c = -1, d = -(1 - 1) in c", "c"),
    // A difference is -0 only from a -0, a sum only of two.
    ("def f() var a = 0 * (0 - 1), c = a - 0, d = 0 - a in c", "d"),
    ("def f() var a = 0 * (0 - 1), s = a + a, t = a + 1 in s", "t"),
    ("def f() var i = 0 in while i < 100 in i = i + 1", "i"),
    ("def f() var x = 1 in for i = 0, i < 10 in x = i", "x"),
    ("def f() var x = 0 in for i = 0, i < 10 in x = (0 - i) * i", ""),
    // Below 2^52, so integral, but not below 2^31.
    ("def f() var x = 3000000000 in x", ""),
  ]

  /// The `var` locals that step by one from whole numbers below 2^53 that are never -0, that
  /// a loop's test reads and no index does, and that are not integral: the IR generator keeps
  /// them in integers that stop at ±2^53 as the doubles do.
  static let steppedCases: [(function: String, stepped: String)] = [
    ("def f(n) var i = 0 in while i < n in i = i + 1", "i"),
    ("def f(n) var i = 0, j = n in while (0 < j) * (i < n) in (i = 1 + i) : (j = j - 1)", "i"),
    ("def f(n) for k = 0, k < n in var i = 0 in while i < k in i = i + 1", "i"),
    // Bounded by the test, so integral instead.
    ("def f() var i = 0 in while i < 100 in i = i + 1", ""),
    // Only added to, or read by an index: no loop's test compares it in integers.
    ("def f(n) var i = 0, c = 0 in while i < n in (c = c + 1) : (i = i + 1)", "i"),
    ("def f(n) var p = 1 in while p < n in a[p - 1] : (p = p + 1)", ""),
    // A step of two rounds past 2^53 to odd multiples of 2, which no stop can follow.
    ("def f(n) var i = 0 in while i < n in i = i + 2", ""),
    ("def f(n) var i = 0 in while i < n in i = i + 0.5", ""),
    ("def f(n) var i = 0 in while i < n in i = 1 - i", ""),
    // Restarted at whole numbers: below 2^53 and never -0, as literals other than 0 are.
    ("def f(n) var i = -9007199254740991 in while i < n in (i = i - 1) : (i = 9007199254740991) : (i = i + 1)", "i"),
    ("def f(n) var i = 9007199254740992 in while i < n in i = i + 1", ""),
    ("def f(n) var i = -0 in while i < n in i = i + 1", ""),
    ("def f(n) var i = 0 in while i < n in (i = i + 1) : (i = n)", ""),
    ("def f(n) var i = 0 in while i < n in (i = i + 1) : (i = a[0])", ""),
    // An operator the program defines is not a step.
    ("def binary & 5 (x y) x + y\ndef f(n) var i = 0 in while i < n in i = i & 1", ""),
  ]

  @Test(arguments: steppedCases)
  func steppedLocals(_ test: (function: String, stepped: String)) throws {
    #expect(try Self.locals(of: test.function) { $0.steppedLocals } == test.stepped)
  }

  @Test(arguments: smallIntegralCases)
  func smallIntegralLocals(_ test: (function: String, small: String)) throws {
    #expect(try Self.locals(of: test.function) { $0.smallIntegralLocals } == test.small)
  }

  static func body(of function: String, in ir: String) -> Substring {
    guard let start = ir.range(of: "define double @\(function)(") else { return "" }
    let rest = ir[start.lowerBound...]
    return rest[..<(rest.range(of: "\n}\n")?.upperBound ?? rest.endIndex)]
  }

  /// The facts for the accesses of the program's function `f`, as `+`, `±` or `?` each.
  static func proved(_ source: String, parameters: UInt64, knowingGlobals: Bool = false) throws -> String {
    let (program, body) = try function(source)
    let globals = knowingGlobals ? WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current) : []
    let facts = WholeIndexAnalysis.analyze(
      body, in: program, forSemantics: .current, wholeParameters: parameters, globals: globals)
    let tree = program.tree
    var accesses: [ExprID] = []
    _ = tree.contains(SyntaxNode(.expr(body.body))) { node in
      guard case .expr(let id) = node.reference else { return false }
      switch tree[id] {
      case .element, .storeElement: accesses.append(id)
      default: break
      }
      return false
    }
    return accesses.sorted { tree.start(of: $0) < tree.start(of: $1) }.map { access in
      switch facts.wholeIndices[access]?.sign {
      case .nonNegative: "+"
      case .any: "±"
      case nil: "?"
      }
    }.joined()
  }

  static func function(_ source: String) throws -> (CheckedProgram, CheckedBody) {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors, "\(result.diagnostics)")
    let body = try #require(result.program.bodies.last { $0.function != nil })
    return (result.program, body)
  }
}
