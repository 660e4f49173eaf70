import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// The shape of calls that tiered execution's policy reads: which functions can run for long
/// (a loop, or a cycle of calls), what a promoted function drags into its module, and which
/// functions are small enough to copy.
@Suite("Call graph (tiers)")
struct CallGraphTests {
  static let program = """
    def leaf(x) x + 1
    def looping(n) for i = 0, i < n in leaf(i)
    def even(n) if n < 1 then 1 else odd(n - 1)
    def odd(n) if n < 1 then 0 else even(n - 1)
    def selfish(n) if n < 1 then 0 else selfish(n - 1)
    def caller(n) leaf(n) + looping(n) + even(n)
    extern sin(x)
    def usesExtern(x) sin(x)
    0
    """

  static func graph() throws -> (CallGraph, CheckedProgram) {
    let checked = Frontend.check(SourceFile(name: "graph.ks", text: program))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    return (CallGraph(checked.program), checked.program)
  }

  @Test(arguments: [
    ("leaf", false), ("looping", true), ("even", true), ("odd", true), ("selfish", true), ("caller", false),
    ("usesExtern", false), ("sin", false),
  ])
  func longRunning(function: String, expected: Bool) throws {
    let (graph, program) = try Self.graph()
    #expect(graph.longRunning[Int(program.function(named: function)!.index)] == expected)
  }

  @Test func aClosureHoldsEveryDefinedCalleeButTheExcludedOnes() throws {
    let (graph, program) = try Self.graph()
    let names = { (ids: [FunctionID]) in Set(ids.map { program.functions[$0].spelling }) }
    let caller = program.function(named: "caller")!
    #expect(names(graph.closure(of: [caller]) { _ in false }) == ["caller", "leaf", "looping", "even", "odd"])
    let leaf = program.function(named: "leaf")!
    #expect(names(graph.closure(of: [caller]) { $0 == leaf }) == ["caller", "looping", "even", "odd"])
    // An extern is never part of a module: it is called where the process has it.
    #expect(names(graph.closure(of: [program.function(named: "usesExtern")!]) { _ in false }) == ["usesExtern"])
  }

  /// A loop's module needs what the loop calls, not what the rest of its body does: in
  /// `def f(n) big(n) : for ...`, `big` stays out of the loop's module.
  @Test func aLoopCallsOnlyWhatIsUnderIt() throws {
    let source = """
      def binary : 1 (x y) y
      def big(n) n * 2
      def leaf(x) x + 1
      def f(n) big(n) : (for i = 0, i < n in leaf(i) + -i) : sin(n)
      extern sin(x)
      0
      """
    let checked = Frontend.check(SourceFile(name: "loop.ks", text: source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let program = checked.program
    let body = try #require(program.body(ofFunction: "f"))
    let names = { (ids: [FunctionID]) in Set(ids.map { program.functions[$0].spelling }) }
    let graph = CallGraph(program)
    #expect(names(graph.callees(under: body.loops[0])) == ["leaf"])
    #expect(names(graph.callees(under: body.body)) == ["binary:", "big", "leaf", "sin"])
  }

  /// The loops compiled ahead: the innermost loops of nests, then those outside any nest,
  /// each in the order the program reaches them (each top-level body, then what it calls),
  /// with the top-level body reaching them.
  @Test func loopsToCompileAheadComeInRunOrder() throws {
    let source = """
      def binary : 1 (x y) y
      var g = 0
      def later(n) for k = 0, k < n in g = g + k
      def nest(n) for i = 0, i < n in for j = 0, j < n in g = g + j
      def first(n) (for a = 0, a < n in g = g + a) : later(n) : nest(n) : (for b = 0, b < n in g = g - b)
      first(3)
      for c = 0, c < 3 in g = g + c
      """
    let checked = Frontend.check(SourceFile(name: "order.ks", text: source))
    try #require(!checked.diagnostics.hasErrors, "\(checked.diagnostics.all)")
    let program = checked.program
    let candidates = CallGraph(program).loopsToCompileAhead()
    let variables = candidates.map { entry -> (String, Int) in
      guard case .loop(let index) = program.tree[entry.loop], case .forLoop(let parts) = program.tree.loop(index) else {
        return ("?", entry.topLevel)
      }
      return (program.tree.text(parts.variable), entry.topLevel)
    }
    let topLevel = program.bodies.indices.filter { program.bodies[$0].function == nil }
    #expect(variables.map(\.0) == ["j", "a", "b", "k", "c"])
    #expect(variables.map(\.1) == [topLevel[1], topLevel[1], topLevel[1], topLevel[1], topLevel[2]])
    #expect(candidates.map(\.nested) == [true, false, false, false, false])
  }

  @Test func smallFunctionsAreThoseUpToTheSizeLimit() throws {
    let body = String(repeating: "x + ", count: CallGraph.smallFunctionSize / 4) + "x"
    let checked = Frontend.check(SourceFile(name: "size.ks", text: "def small(x) x\ndef big(x) \(body)\n"))
    try #require(!checked.diagnostics.hasErrors)
    let graph = CallGraph(checked.program)
    #expect(graph.isSmall[Int(checked.program.function(named: "small")!.index)])
    #expect(!graph.isSmall[Int(checked.program.function(named: "big")!.index)])
  }
}
