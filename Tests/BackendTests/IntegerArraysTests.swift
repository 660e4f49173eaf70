import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// `WholeIndexAnalysis.integerArrays` lets a global array keep 64-bit integers only when
/// every element it can ever hold is a whole number below 2^52 that is never -0, no
/// function is given the array, and one of its elements becomes an index. Each case lists
/// the arrays kept as integers, by name; in the first table, every array of the case is
/// also read as an index (`x[p[0]]`), so that only the rules about its elements decide.
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

  /// Whether an element becomes an index, in one body: directly, through locals, or plus
  /// or minus something; not through a call, nor from arithmetic alone.
  static let indexCases: [(source: String, integers: String)] = [
    ("var p[] = [3, 1, 2]\ndef f() x[p[0]]", "p"),
    ("var p[] = [3, 1, 2]\ndef f() var k = p[0] in var j = k in x[j]", "p"),
    ("var p[] = [3, 1, 2]\ndef f() var k = 0 in (k = p[1] + 1) : (x[k - 1] = 5)", "p"),
    ("var p[] = [3, 1, 2]\ndef f() x[if g then p[0] else 1]", "p"),
    ("var p[] = [3, 1, 2]\ndef f() var s = 0 in (s = s + p[0] * 2) : x[s]", ""),
    ("var p[] = [3, 1, 2]\ndef id(v) v\ndef f() x[id(p[0])]", ""),
    ("var p[] = [3, 1, 2]\ndef f() var s = 0 in for i = 0, i < 3 in s = s + p[i]", ""),
  ]

  @Test(arguments: cases)
  func integerArrays(source: String, integers: String) throws {
    // The arrays the case declares: `var p[...]`, and `, q[...]` after it.
    let names = source.matches(of: /(?:var |, )([a-z]+)\[/).map { String($0.1) }
    let uses = names.map { "x[\($0)[0]]" }.joined(separator: " : ")
    try #expect(Self.kept(source + "\ndef use() " + uses) == integers)
  }

  @Test(arguments: indexCases)
  func elementsThatBecomeIndices(source: String, integers: String) throws {
    try #expect(Self.kept(source) == integers)
  }

  /// The arrays the program (after the prelude) keeps as integers, by name.
  static func kept(_ source: String) throws -> String {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: Self.prelude + source))
    try #require(!result.diagnostics.hasErrors, "\(result.diagnostics)")
    let program = result.program
    let kept = WholeIndexAnalysis.integerArrays(
      of: program, globals: WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current))
    let names = program.globals.symbols.indices.filter { kept[$0] }.map { program.globals.symbols[$0].spelling }
    return names.joined(separator: " ")
  }

  /// The differential tests run generated programs through every engine: some must keep
  /// arrays as integers, or the engines' agreement on them goes untested (13 of the first
  /// 96 seeds do, one of the 24 that CI runs; the soak runs thousands).
  @Test func generatedProgramsKeepSomeArraysAsIntegers() throws {
    var programs = 0
    for seed in 1...96 as ClosedRange<UInt64> {
      var generator = ProgramGenerator(seed: seed)
      let result = Pipeline.check(SourceFile(name: "generated.ks", text: generator.program()))
      guard !result.diagnostics.hasErrors else { continue }
      let kept = WholeIndexAnalysis.integerArrays(
        of: result.program, globals: WholeIndexAnalysis.stableGlobals(of: result.program, forSemantics: .current))
      if kept.contains(true) { programs += 1 }
    }
    #expect(programs >= 6, "\(programs) of 96 generated programs keep an array as integers")
  }
}
