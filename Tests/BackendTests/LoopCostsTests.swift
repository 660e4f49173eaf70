import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// How many iterations make a loop hot (`LoopCosts`): fewer, the more an iteration costs
/// the interpreter, counting each call as the callee's body.
@Suite("Loop costs")
struct LoopCostsTests {
  /// The loop of `f` in `source`, with the costs of its program.
  static func loopOfF(in source: String, hotIterations: Int = 4096) throws -> (LoopCosts, ExprID, Int32) {
    let checked = Frontend.check(SourceFile(name: "costs.ks", text: "def binary : 1 (x y) y\nvar g = 0\n" + source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let program = checked.program
    let body = try #require(program.body(ofFunction: "f"))
    let loop = try #require(body.loops.first)
    guard case .loop(let index) = program.tree[loop] else { preconditionFailure("a loop") }
    let policy = TierPolicy(hotIterations: hotIterations)
    return (LoopCosts(CallGraph(program), policy: policy), loop, index)
  }

  static let helper = "def h(x) g + x * 2 - x / 3 + x * x - (x + 1) * (x - 1)\n"
  /// A loop that calls `helper` eight times in each iteration.
  static let eightCalls = helper + "def f(n) for i = 0, i < n in g = \((1...8).map { "h(i + \($0))" }.joined(separator: " + "))\n"

  /// A loop that adds two numbers takes the policy's iterations, and one that calls a small
  /// helper once about as many; one whose iteration calls it eight times, far fewer; one
  /// that calls a recursive function, the fewest (1/32).
  static let loops: [(name: String, source: String, hot: ClosedRange<Int>)] = [
    ("a sum", "def f(n) for i = 0, i < n in g = g + i\n", 4096...4096),
    ("a while loop's sum", "def f(n) var i = 0 in while i < n in (g = g + i) : (i = i + 1)\n", 4096...4096),
    ("one call of a helper", helper + "def f(n) for i = 0, i < n in g = h(i)\n", 2048...4096),
    ("eight calls of a helper", eightCalls, 129...1024),
    ("recursion", "def r(x) if x < 1 then 0 else r(x - 1)\ndef f(n) for i = 0, i < n in g = r(i)\n", 128...128),
  ]

  @Test(arguments: loops)
  func aCostlierIterationIsHotSooner(loop: (name: String, source: String, hot: ClosedRange<Int>)) throws {
    let (costs, node, index) = try Self.loopOfF(in: loop.source)
    let hot = costs.hotIterations(ofLoop: node, index: index)
    #expect(loop.hot.contains(hot), "\(loop.name): \(hot)")
    // Asked again, the answer is the one kept.
    #expect(costs.hotIterations(ofLoop: node, index: index) == hot)
  }

  /// A call costs its callee's body at every call site.
  @Test func eachCallCountsTheCallee() throws {
    let once = try Self.loopOfF(in: Self.helper + "def f(n) for i = 0, i < n in g = h(i)\n")
    let twice = try Self.loopOfF(in: Self.helper + "def f(n) for i = 0, i < n in g = h(i) + h(i)\n")
    let helperCost = twice.0.iterationCost(of: twice.1) - once.0.iterationCost(of: once.1)
    #expect(helperCost > 20)
  }

  /// The thresholds tests force stay in force: 0, 1 and "never" (`Int.max`) as given, and a
  /// small one scaled down no further than 1, so that a "late" promotion still lands in the
  /// middle of a loop.
  @Test(arguments: [(0, 0...0), (1, 1...1), (5, 1...4), (8, 1...7), (Int.max, Int.max...Int.max)])
  func smallThresholdsStayPositive(given: Int, expected: ClosedRange<Int>) throws {
    let (costs, node, index) = try Self.loopOfF(in: Self.eightCalls, hotIterations: given)
    #expect(expected.contains(costs.hotIterations(ofLoop: node, index: index)))
  }
}
