/// Graphviz's DOT language for control-flow graphs, and its drawing as SVG by `dot`.
extension ControlFlowGraph {
  /// One `digraph` (or, `asCluster`, a `subgraph cluster_N` to put in one): a box per
  /// block with its label and instructions, left-aligned; the true and false edges of a
  /// conditional branch labelled `T` (green) and `F` (red); back edges dashed and bold.
  public func dot(asCluster cluster: Int? = nil) -> String {
    let prefix = cluster.map { "c\($0)_" } ?? ""
    var out =
      cluster.map { "  subgraph cluster_\($0) {\n    label=\(Self.quoted(function));\n" }
      ?? "digraph \(Self.quoted(function)) {\n"
    let indent = cluster == nil ? "  " : "    "
    out += "\(indent)node [shape=box, fontname=\"monospace\", fontsize=10];\n"
    out += "\(indent)edge [fontname=\"monospace\", fontsize=10];\n"
    for (index, block) in blocks.enumerated() {
      let text = ([block.label + ":"] + block.instructions.map { "  " + $0 }).map { Self.escaped($0) + "\\l" }.joined()
      out += "\(indent)\(prefix)b\(index) [label=\"\(text)\"];\n"
    }
    for edge in edges {
      var attributes: [String] = []
      switch edge.kind {
      case .always: break
      case .whenTrue: attributes += ["label=\"T\"", "color=\"darkgreen\"", "fontcolor=\"darkgreen\""]
      case .whenFalse: attributes += ["label=\"F\"", "color=\"red\"", "fontcolor=\"red\""]
      }
      if edge.isBack { attributes += ["style=\"dashed,bold\""] }
      let list = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      out += "\(indent)\(prefix)b\(edge.from) -> \(prefix)b\(edge.to)\(list);\n"
    }
    return out + (cluster == nil ? "}\n" : "  }\n")
  }

  /// One `digraph` holding each graph as a cluster, for one drawing of several functions.
  public static func dot(combining graphs: [ControlFlowGraph]) -> String {
    "digraph cfg {\n" + graphs.enumerated().map { $1.dot(asCluster: $0) }.joined() + "}\n"
  }

  /// `text` as a DOT string literal.
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text) + "\""
  }

  /// `text` safe inside a DOT string: backslashes and quotes escaped.
  private static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      default: out.append(character)
      }
    }
    return out
  }
}

/// Graphviz (Debian's `graphviz`), which lays out and draws the graphs.
public enum Graphviz {
  /// The SVG drawing of `dot`, by Graphviz's `dot -Tsvg`.
  public static func svg(of dot: String) throws -> String {
    let work = try TemporaryDirectory()
    let input = "\(work.path)/graph.dot"
    let output = "\(work.path)/graph.svg"
    try Subprocess.writeFile(input, contents: dot)
    let status: Int32
    let errors: String
    do {
      (status, errors) = try Subprocess.run(["dot", "-Tsvg", "-o", output, input])
    } catch {
      throw BackendError.system("drawing needs Graphviz's `dot`: apt-get install graphviz (\(error))")
    }
    guard status == 0 else { throw BackendError.system("dot failed:\n\(errors)") }
    return try Subprocess.readFile(output)
  }
}
