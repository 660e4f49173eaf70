import KaleidoscopeFrontend
import Testing

@testable import KaleidoscopeBackend

/// The trip count tiered execution estimates for a loop (`CheckedProgram.tripCount`): a
/// `for` counting by 1, from a start to a bound of literals, fixed globals and `+ - *`.
@Suite("Loop trip counts")
struct LoopTripCountTests {
  static let cases: [(bound: String, trips: Double?)] = [
    ("i < 100", 100),
    ("i < N", 10),
    ("i < N * N - 1", 99),
    ("i < len(a) + N", 17),
    ("i < len(local)", nil),
    ("i < n", nil),
    ("i < N / 2", nil),
    ("i < unknown", nil),
    ("i < N | 3", nil),
    ("i < 100, 2", nil),
    ("i < -N", nil),
  ]

  @Test(arguments: cases)
  func aBoundMadeOfKnownValuesGivesTheTripCount(bound: String, trips: Double?) throws {
    let source = """
      def binary | 5 (a b) b
      var N = 10, unknown = 3, a[7]
      def f(n) var local[2] in for i = 2, \(bound) in 0
      """
    let checked = Frontend.check(SourceFile(name: "trips.ks", text: source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let program = checked.program
    let loop = try #require(program.bodies.lazy.compactMap(\.loops.first).first)
    let index = { (name: String) in program.global(named: name)!.index }
    var fixed = IRGenerator.FixedGlobals()
    fixed.numbers[index("N")] = 10
    fixed.arrays[index("a")] = 7
    #expect(program.tripCount(ofLoop: loop, fixed: fixed) == trips.map { $0 - 2 })
  }

  static let starts: [(start: String, trips: Double?)] = [("0 - 1", 11), ("N - 3", 3), ("n", nil), ("-1", nil)]

  @Test(arguments: starts)
  func aStartMadeOfKnownValuesGivesTheTripCount(start: String, trips: Double?) throws {
    let source = "var N = 10\ndef f(n) for i = \(start), i < 10 in 0\n"
    let checked = Frontend.check(SourceFile(name: "trips.ks", text: source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let loop = try #require(checked.program.bodies.lazy.compactMap(\.loops.first).first)
    var fixed = IRGenerator.FixedGlobals()
    fixed.numbers[0] = 10
    #expect(checked.program.tripCount(ofLoop: loop, fixed: fixed) == trips)
  }

  @Test func aWhileLoopHasNone() throws {
    let checked = Frontend.check(SourceFile(name: "trips.ks", text: "def f(n) while n < 10 in n = n + 1\n"))
    let loop = try #require(checked.program.bodies.lazy.compactMap(\.loops.first).first)
    #expect(checked.program.tripCount(ofLoop: loop, fixed: IRGenerator.FixedGlobals()) == nil)
  }
}
