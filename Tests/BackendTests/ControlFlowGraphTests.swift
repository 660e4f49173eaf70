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

/// `ControlFlowGraph.graphs(ofAssembly:)` on the code LLVM 19 prints for one loop, on each
/// target `cfg --asm` draws: the entry's conditional jump past the loop (T) or into the block
/// it falls into (F), that block into the loop, the loop's jump back to itself (T, a back
/// edge) and its way out (F).
@Suite("Control-flow graphs of machine code")
struct MachineControlFlowGraphTests {
  static let assemblies = [
    """
    \t.globl\tsum
    sum:
    \t.cfi_startproc
    \tvxorpd\t%xmm1, %xmm1, %xmm1
    \tvucomisd\t%xmm0, %xmm1
    \tjae\t.LBB0_3
    \tvmovsd\t.LCPI0_0(%rip), %xmm3          # xmm3 = [1.0E+0,0.0E+0]
    \t.p2align\t4, 0x90
    .LBB0_2:
    \tvaddsd\t%xmm2, %xmm1, %xmm1
    \tvucomisd\t%xmm0, %xmm2
    \tjb\t.LBB0_2
    .LBB0_3:
    \tretq
    .Lfunc_end0:
    """,
    """
    sum:
    \tmovi\td1, #0000000000000000
    \tfcmp\td0, #0.0
    \tb.ls\t.LBB0_3
    \tfmov\td3, #1.00000000 // a comment
    .LBB0_2:
    \tfadd\td1, d1, d2
    \tfcmp\td2, d0
    \tb.lt\t.LBB0_2
    .LBB0_3:
    \tret
    .Lfunc_end0:
    """,
    """
    sum:
    \tfle.d\ta0, fa0, fa5
    \tbnez\ta0, .LBB0_3
    .Lpcrel_hi0:
    \tauipc\ta0, %pcrel_hi(.LCPI0_0)
    .LBB0_2:
    \tfadd.d\tfa5, fa5, fa3
    \tbeqz\ta0, .LBB0_2
    .LBB0_3:
    \tret
    .Lfunc_end0:
    """,
  ]

  @Test(arguments: assemblies)
  func aLoopOnEveryTarget(assembly: String) throws {
    let graphs = ControlFlowGraph.graphs(ofAssembly: assembly)
    let graph = try #require(graphs.first)
    #expect(graphs.count == 1)
    #expect(graph.function == "sum")
    #expect(graph.blocks.map(\.label) == ["sum", "sum.1", ".LBB0_2", ".LBB0_3"])
    let edges = graph.edges.map { edge in
      let kind = edge.kind == .whenTrue ? "T" : edge.kind == .whenFalse ? "F" : ""
      return "\(edge.from)\(edge.to)\(kind)\(edge.isBack ? "b" : "")"
    }
    #expect(edges == ["03T", "01F", "12", "22Tb", "23F"])
  }

  /// A conditional jump followed by the unconditional one that is its way on ends one block
  /// with two edges; comments and directives are not instructions.
  @Test func aConditionalAndAnUnconditionalJumpEndOneBlock() {
    let assembly = "f:\n\tcmpq\t$1, %rdi\n\tjne\t.LBB0_2\n\tjmp\t.LBB0_1\n.LBB0_1:\n\tretq\n.LBB0_2:\n\tud2\n.Lfunc_end0:\n"
    let graph = ControlFlowGraph.graphs(ofAssembly: assembly)[0]
    #expect(graph.blocks.map(\.instructions) == [["cmpq $1, %rdi", "jne .LBB0_2", "jmp .LBB0_1"], ["retq"], ["ud2"]])
    #expect(graph.edges.map { [$0.from, $0.to] } == [[0, 2], [0, 1]])
    #expect(graph.edges.map(\.kind) == [.whenTrue, .whenFalse])
  }
}
