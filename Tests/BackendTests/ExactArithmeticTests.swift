import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// `ExactArithmetic` accepts an expression only when doubles compute it exactly: every
/// intermediate a multiple of 2^-scale below 2^53, with no division but by a power of two.
/// Expressions are the body of `def f(i, j)`, with `i` and `j` known whole below 2^11 and
/// `g` a global known whole below 2^54.
@Suite("Exact arithmetic")
struct ExactArithmeticTests {
  static let valueCases: [(expression: String, value: ExactArithmetic.Value?)] = [
    // Spectral-norm's denominator: one scale, 27 bits.
    ("(i + j) * (i + j + 1) / 2 + i + 1", .init(bits: 27, scale: 1)),
    ("i * 0.5", .init(bits: 12, scale: 1)),
    ("(i * 3 + j) / 4 - i / 2 + 0.125", .init(bits: 17, scale: 3)),
    ("i / 65536", .init(bits: 11, scale: 16)),
    ("-i * j", .init(bits: 22, scale: 0)),
    ("len(x) - i", .init(bits: 33, scale: 0)),
    // Past 2^53, finer than 2^-16, or divided by anything else: doubles.
    ("i * i * i * i * i", nil),
    ("g + i", nil),
    ("i / 131072", nil),
    ("i + 0.1", nil),
    ("i / 3", nil),
    ("i / 0.5", nil),
    ("i / j", nil),
    ("i < j", nil),
    ("i + h(j)", nil),
    ("i + (j = 2)", nil),
    ("i + x[j]", nil),
  ]

  @Test(arguments: valueCases)
  func value(expression: String, value: ExactArithmetic.Value?) throws {
    let (program, body) = try Self.function(expression)
    #expect(Self.arithmetic(program).value(of: body) == value)
  }

  /// Only a negation or a product can make -0 from numbers that are not (a negated literal
  /// only if it is 0); a sum needs two -0s, a difference or a division a -0 on the left.
  static let negativeZeroCases: [(expression: String, mayBe: Bool)] = [
    ("i + j", false),
    ("i - j", false),
    ("i / 2", false),
    ("i * j", true),
    ("-i", true),
    ("-1", false),
    ("-0", true),
    ("-i + 1", false),
    ("(0 - i) * j", true),
    ("(0 - i) * j + 1", false),
    ("(0 - i) * j - 1", true),
  ]

  @Test(arguments: negativeZeroCases)
  func negativeZero(expression: String, mayBe: Bool) throws {
    let (program, body) = try Self.function(expression)
    #expect(Self.arithmetic(program).mayBeNegativeZero(body) == mayBe)
  }

  /// A parameter is known whole when every call passes a counter in its loop's body, a
  /// literal, a known global, or arithmetic on them below 2^31, and the function never
  /// assigns it. Each case gives the bits of `p`'s parameters, `-` for unknown.
  static let parameterCases: [(source: String, bits: String)] = [
    ("def p(i, j) i + j\ndef f() for i = 0, i < 100 in p(i, 3)", "7 2"),
    ("def p(i, j) i + j\ndef f() for i = 0, i < 100 in p(i * 2 + 1, k)", "10 4"),
    // Another call with a fraction.
    ("def p(i, j) i + j\ndef f() for i = 0, i < 100 in p(i, 3)\np(0.5, 1)", "- 2"),
    // Assigned, recursive, or past 2^31.
    ("def p(i, j) (i = i + j) + j\ndef f() for i = 0, i < 100 in p(i, 3)", "- 2"),
    ("def p(i, j) if i < 1 then 0 else p(i - 1, j)\np(10, 3)", "- -"),
    ("def p(i, j) i + j\np(k + k * k, 2147483648)", "9 -"),
    // -0, and a counter whose loop has a bound not known whole.
    ("def p(i, j) i + j\ndef f() for i = 0, i < 100 in p(-i, 0 - i)", "- 8"),
    ("def p(i, j) i + j\ndef f(n) for i = 0, i < n in p(i, 1)", "- 1"),
    // Through an operator the program defines; a function nothing calls is unknown.
    ("def binary % 60 (a, b) a - b\ndef p(i, j) i + j\ndef f() for i = 0, i < 10 in i % 2", ""),
    ("def p(i, j) i + j", ""),
  ]

  @Test(arguments: parameterCases)
  func parameters(source: String, bits: String) throws {
    let program = try Self.check("var k = 12, x[4]\n" + source)
    let facts = WholeIndexAnalysis.globalFacts(of: program, forSemantics: .current)
    let function = try #require(program.function(named: "p"))
    let known = facts.parameters[Int(function.index)].map { $0.map(String.init) ?? "-" }
    #expect(known.joined(separator: " ") == bits)
  }

  @Test func anOperatorsOperandsAreItsArguments() throws {
    let program = try Self.check("def binary % 60 (a, b) a - b\ndef f() for i = 0, i < 10 in i % 2")
    let facts = WholeIndexAnalysis.globalFacts(of: program, forSemantics: .current)
    let function = try #require(program.functions.symbols.firstIndex { $0.spelling.hasPrefix("binary") })
    #expect(facts.parameters[function] == [4, 2])
  }

  /// Under the older `for` semantics the counters are not integers, so nothing is known.
  @Test func legacyLoopsKnowNoParameters() throws {
    let program = try Self.check("def p(i) i\ndef f() for i = 0, i < 100 in p(i)")
    #expect(WholeIndexAnalysis.globalFacts(of: program, forSemantics: .legacy).parameters.isEmpty)
  }

  /// The differential tests run generated programs through every engine: some of their
  /// functions must have parameters known whole, or the engines' agreement on the
  /// arithmetic done with them goes untested.
  @Test func generatedProgramsHaveParametersKnownWhole() throws {
    let programs = GeneratedPrograms.checked(seeds: 1...96).filter { program in
      WholeIndexAnalysis.globalFacts(of: program, forSemantics: .current).parameters.contains { $0.contains { $0 != nil } }
    }.count
    #expect(programs >= 8, "\(programs) of 96 generated programs have a parameter known whole")
  }

  static func check(_ source: String) throws -> CheckedProgram {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors, "\(result.diagnostics)")
    return result.program
  }

  /// The program with `def f(i, j) expression`, and the expression's node.
  static func function(_ expression: String) throws -> (CheckedProgram, ExprID) {
    let program = try check("var g = 9007199254740992, x[4]\ndef h(v) v\ndef f(i, j) " + expression)
    let body = try #require(program.body(ofFunction: "f"))
    return (program, body.body)
  }

  /// What is exact in `f`: its parameters below 2^11, and the globals as the program's
  /// stores make them.
  static func arithmetic(_ program: CheckedProgram) -> ExactArithmetic {
    let globals = WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current)
    return ExactArithmetic(
      program: program, localBits: { $0.index < 2 ? 11 : nil },
      globalBits: { globals[Int($0.index)]?.bits })
  }
}
