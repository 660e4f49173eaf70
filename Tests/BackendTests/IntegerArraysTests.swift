import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// `WholeIndexAnalysis.integerArrays` lets a global array keep 64-bit integers only when
/// every element it can ever hold is a whole number below 2^52 that is never -0, no
/// function is given the array, and none of its elements is multiplied or divided. Each
/// case lists the arrays kept as integers, by name.
@Suite("Integer arrays")
struct IntegerArraysTests {
  static let prelude = "def binary : 1 (x y) y\nvar g = 1, x[300]\n"

  static let cases: [(source: String, integers: String)] = [
    ("var p[10]\ndef f() for i = 0, i < 10 in p[i] = i", "p"),
    ("var s[] = \"text\"", "s"),
    ("var l[] = [1, 2, 3]", "l"),
    ("var l[] = [1, 2.5]", ""),
    // Only literals are known, negated ones too, but not with a `-` of the program's own.
    ("var l[] = [1, g]", ""),
    ("var l[] = [1, -2]", "l"),
    ("var l[] = [1, -0]", ""),
    ("def unary-(x) 0.5\nvar l[] = [1, -2]", ""),
    ("var p[10]\ndef f() p[0] = -0", ""),
    // A fraction halfway through a loop, and one stored at the top level.
    ("var p[10]\ndef f() for i = 0, i < 10 in p[i] = if i < 5 then i else i / 2", ""),
    ("var p[10], h\nh = (p[0] = 0.5)", ""),
    ("var p[10]\ndef f(x) p[0] = x", ""),
    ("var p[10]\ndef f() p[0] = 0 * -1", ""),
    // A count stepped by 1 with no bound may pass 2^52, and a product
    // grows past any bound: both keep doubles.
    ("var p[10]\ndef f(i) p[i] = p[i] + 1", ""),
    ("var p[10]\ndef f() for i = 0, i < 10 in p[0] = p[0] * 3 + 1", ""),
    // 4e15 is below 2^52, 5e15 is not.
    ("var l[] = [4e15]", "l"),
    ("var l[] = [5e15]", ""),
    // A store beyond a counter's bound widens the fact to 2^63.
    ("var p[10]\ndef f() p[0] = 1e10", "p"),
    ("var p[10]\ndef f() p[0] = 2e10", ""),
    // An array given to a function may be stored into through its parameter, and the
    // function may be given other arrays: both keep doubles.
    ("var p[10], q[10]\ndef h(r[]) r[0]\ndef f() h(p)", "q"),
    ("var p[10], q[10]\ndef h(r[]) r[0] = 1\ndef f() h(p) : h(\"s\")", "q"),
    // A store through a parameter reaches only the arrays passed.
    ("var p[10], q[10]\ndef h(r[]) r[0] = 0.5\ndef f() h(p)", "q"),
    // A store of an element of another array: whole when that array's are.
    ("var p[10], q[10]\ndef f() for i = 0, i < 10 in (q[i] = p[i]) : (p[i] = i)", "p q"),
    ("var p[10], q[10]\ndef f() for i = 0, i < 10 in (q[i] = p[i]) : (p[i] = i / 3)", ""),
  ]

  /// Whether an element is multiplied or divided, in one body: directly, through locals,
  /// plus or minus something, or as a branch of an `if`; not through a call. An index, a
  /// comparison, a sum keep integers.
  static let productCases: [(source: String, integers: String)] = [
    ("var p[] = [3, 1, 2]\ndef f() x[p[0]] + (p[1] < 2) + p[2]", "p"),
    ("var p[] = [3, 1, 2]\ndef f() var s = 0 in for i = 0, i < 3 in s = s + p[i]", "p"),
    ("var p[] = [3, 1, 2]\ndef f() p[0] * 2", ""),
    ("var p[] = [3, 1, 2]\ndef f() 2 / p[0]", ""),
    ("var p[] = [3, 1, 2]\ndef f() var k = p[0] in var j = k in j * 2", ""),
    ("var p[] = [3, 1, 2]\ndef f() var k = 0 in (k = p[1] + 1) : (k * 3)", ""),
    ("var p[] = [3, 1, 2]\ndef f() (if g then p[0] else 1) * 2", ""),
    ("var p[] = [3, 1, 2], q[] = [1]\ndef f() p[0] * 2 + q[0]", "q"),
    ("var p[] = [3, 1, 2]\ndef id(v) v\ndef f() id(p[0]) * 2", "p"),
  ]

  @Test(arguments: cases)
  func integerArrays(source: String, integers: String) throws {
    try #expect(Self.kept(source) == integers)
  }

  @Test(arguments: productCases)
  func elementsMultipliedKeepDoubles(source: String, integers: String) throws {
    try #expect(Self.kept(source) == integers)
  }

  /// The arrays the program (after the prelude) keeps as integers, by name.
  static func kept(_ source: String) throws -> String {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: Self.prelude + source))
    try #require(!result.diagnostics.hasErrors, "\(result.diagnostics)")
    let program = result.program
    let kept = WholeIndexAnalysis.integerArrays(
      of: program, globals: WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current))
    // The prelude's `x`, an array of zeros that cases index, is left out.
    let names = program.globals.symbols.indices.filter { kept[$0] }.map { program.globals.symbols[$0].spelling }
    return names.filter { $0 != "x" }.joined(separator: " ")
  }

  /// The differential tests run generated programs through every engine: some must keep
  /// arrays as integers, or the engines' agreement on them goes untested (32 of the first
  /// 96 seeds do; the soak runs thousands).
  @Test func generatedProgramsKeepSomeArraysAsIntegers() throws {
    let programs = GeneratedPrograms.checked(seeds: 1...96).filter { program in
      WholeIndexAnalysis.integerArrays(
        of: program, globals: WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current)
      ).contains(true)
    }.count
    #expect(programs >= 16, "\(programs) of 96 generated programs keep an array as integers")
  }
}
