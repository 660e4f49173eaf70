/// A function's control-flow graph (SPEC §7, `cfg`): its basic blocks in order and the
/// branches between them, read from the function's textual IR, as the tutorial's chapter 5
/// draws it with `viewCFG`.
public struct ControlFlowGraph: Sendable, Equatable {
  /// A basic block: its label and its instructions, as the IR prints them.
  public struct Block: Sendable, Equatable {
    public var label: String
    public var instructions: [String]
  }

  /// How a branch leaves its block.
  public enum EdgeKind: Sendable, Equatable {
    /// The only way on (`br label`, or a `switch` case).
    case always
    /// A conditional branch's first target, taken when the condition is true.
    case whenTrue
    /// Its second, taken when it is false.
    case whenFalse
  }

  /// A branch from one block to another, by their indices in `blocks`.
  public struct Edge: Sendable, Equatable {
    public var from: Int
    public var to: Int
    public var kind: EdgeKind
    /// Whether it goes back to a block on the path that reached it (a loop's back edge),
    /// following the blocks depth first from the entry.
    public var isBack: Bool
  }

  /// The function's IR name.
  public var function: String
  public var blocks: [Block]
  public var edges: [Edge]

  /// The graph of one function's IR, from its `define` line to its closing `}`.
  public init(function: String, ir: String) {
    self.function = function
    blocks = Self.blocks(of: ir)
    let index = Dictionary(blocks.enumerated().map { ($1.label, $0) }, uniquingKeysWith: { first, _ in first })
    edges = []
    for (from, block) in blocks.enumerated() {
      guard let terminator = Self.terminator(of: block) else { continue }
      let targets = Self.labels(in: terminator).compactMap { index[$0] }
      let conditional = terminator.hasPrefix("br i1 ") && targets.count == 2
      for (position, to) in targets.enumerated() {
        let kind: EdgeKind = conditional ? (position == 0 ? .whenTrue : .whenFalse) : .always
        edges.append(Edge(from: from, to: to, kind: kind, isBack: false))
      }
    }
    markBackEdges()
  }

  /// The blocks of a function's text: a label line (`name:`, optionally followed by a
  /// `; preds` comment) starts one; an entry block without a label is `entry`.
  private static func blocks(of ir: String) -> [Block] {
    var blocks: [Block] = []
    for line in ir.split(separator: "\n").dropFirst() where line != "}" {
      if let label = Self.label(of: line) {
        blocks.append(Block(label: label, instructions: []))
      } else if line.hasPrefix("  ") {
        if blocks.isEmpty { blocks.append(Block(label: "entry", instructions: [])) }
        blocks[blocks.count - 1].instructions.append(line.trimmingPrefix("  ").description)
      }
    }
    return blocks
  }

  /// The label a line declares, if it is a label line.
  private static func label(of line: Substring) -> String? {
    guard let first = line.first, first != " ", first != ";", let name = IRText.symbol(line) else { return nil }
    let afterName = line.dropFirst(first == "\"" ? name.utf8.count + 2 : name.utf8.count)
    return afterName.hasPrefix(":") ? name : nil
  }

  /// The block's last instruction with the lines a `switch` continues on.
  private static func terminator(of block: Block) -> String? {
    guard let start = block.instructions.lastIndex(where: { !$0.hasPrefix(" ") && !$0.hasPrefix("]") }) else {
      return nil
    }
    return block.instructions[start...].joined(separator: " ")
  }

  /// The targets of `label %NAME` in a terminator, in order.
  private static func labels(in terminator: String) -> [String] {
    var result: [String] = []
    var rest = terminator[...]
    while let found = rest.firstRange(of: "label %") {
      rest = rest[found.upperBound...]
      if let name = IRText.symbol(rest) { result.append(name) }
    }
    return result
  }

  /// Marks the edges to a block still on the depth-first path from the entry.
  mutating func markBackEdges() {
    guard !blocks.isEmpty else { return }
    var outgoing = [[Int]](repeating: [], count: blocks.count)
    for (position, edge) in edges.enumerated() { outgoing[edge.from].append(position) }
    var state = [UInt8](repeating: 0, count: blocks.count)  // 0 unseen, 1 on the path, 2 done
    var stack: [(block: Int, next: Int)] = [(0, 0)]
    state[0] = 1
    while let top = stack.last {
      guard top.next < outgoing[top.block].count else {
        state[top.block] = 2
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      let position = outgoing[top.block][top.next]
      let target = edges[position].to
      switch state[target] {
      case 0:
        state[target] = 1
        stack.append((target, 0))
      case 1:
        edges[position].isBack = true
      default:
        break
      }
    }
  }
}
