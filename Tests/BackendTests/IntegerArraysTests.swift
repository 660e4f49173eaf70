import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// `WholeIndexAnalysis.integerArrays` lets a global array keep 64-bit integers only when
/// every element it can ever hold is a whole number below 2^63 that is never -0, and no
/// function is given the array. Each case lists the arrays kept as integers, by name.
@Suite("Integer arrays")
struct IntegerArraysTests {
  static let prelude = "def binary : 1 (x y) y\nvar g = 1\n"

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

  @Test(arguments: cases)
  func integerArrays(source: String, integers: String) throws {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: Self.prelude + source))
    try #require(!result.diagnostics.hasErrors, "\(result.diagnostics)")
    let program = result.program
    let kept = WholeIndexAnalysis.integerArrays(
      of: program, globals: WholeIndexAnalysis.stableGlobals(of: program, forSemantics: .current))
    let names = program.globals.symbols.indices.filter { kept[$0] }.map { program.globals.symbols[$0].spelling }
    #expect(names.joined(separator: " ") == integers)
  }

  /// The differential tests run generated programs through every engine: some must keep
  /// arrays as integers, or the engines' agreement on them goes untested.
  @Test func generatedProgramsKeepSomeArraysAsIntegers() throws {
    var programs = 0
    for seed in 1...24 as ClosedRange<UInt64> {
      var generator = ProgramGenerator(seed: seed)
      let result = Pipeline.check(SourceFile(name: "generated.ks", text: generator.program()))
      guard !result.diagnostics.hasErrors else { continue }
      let kept = WholeIndexAnalysis.integerArrays(
        of: result.program, globals: WholeIndexAnalysis.stableGlobals(of: result.program, forSemantics: .current))
      if kept.contains(true) { programs += 1 }
    }
    #expect(programs >= 4, "\(programs) of 24 generated programs keep an array as integers")
  }
}
