import KaleidoscopeBackend
import Testing

/// `ControlFlowGraph` reads a function's textual IR: labels, terminators and back edges.
@Suite("Control-flow graphs")
struct ControlFlowGraphTests {
  /// An unnamed entry block, numbered and quoted labels, a `switch` over several lines and
  /// a loop.
  static let ir = """
    define double @f(double %x) {
      %c = fcmp one double %x, 0.000000e+00
      br i1 %c, label %"odd name", label %5
    "odd name":                                       ; preds = %0
      %i = fptosi double %x to i64
      switch i64 %i, label %5 [
        i64 1, label %loop
        i64 2, label %5
      ]
    loop:                                             ; preds = %loop, %"odd name"
      br i1 %c, label %loop, label %5
    5:
      ret double %x
    }

    """

  @Test func blocksAndEdges() {
    let graph = ControlFlowGraph(function: "f", ir: Self.ir)
    #expect(graph.blocks.map(\.label) == ["entry", "odd name", "loop", "5"])
    #expect(graph.blocks[1].instructions.count == 5)
    let edges = graph.edges.map { edge in
      let kind = edge.kind == .whenTrue ? "T" : edge.kind == .whenFalse ? "F" : ""
      return "\(edge.from)\(edge.to)\(kind)\(edge.isBack ? "b" : "")"
    }
    #expect(edges == ["01T", "03F", "13", "12", "13", "22Tb", "23F"])
  }

  @Test func dotEscapesQuotesAndEndsEveryLineLeftAligned() {
    let dot = ControlFlowGraph(function: "binary\"", ir: Self.ir).dot()
    #expect(dot.hasPrefix("digraph \"binary\\\"\" {\n"))
    #expect(dot.contains("b1 [label=\"odd name:\\l  %i = fptosi double %x to i64\\l"))
    #expect(dot.contains("br i1 %c, label %\\\"odd name\\\", label %5\\l"))
    #expect(dot.contains("b2 -> b2 [label=\"T\", color=\"darkgreen\", fontcolor=\"darkgreen\", style=\"dashed,bold\"];"))
  }

  @Test func severalGraphsDrawAsClustersOfOne() {
    let graph = ControlFlowGraph(function: "f", ir: Self.ir)
    let dot = ControlFlowGraph.dot(combining: [graph, graph])
    #expect(dot.hasPrefix("digraph cfg {\n  subgraph cluster_0 {\n    label=\"f\";\n"))
    #expect(dot.contains("subgraph cluster_1 {"))
    #expect(dot.contains("c1_b0 -> c1_b1"))
  }
}
