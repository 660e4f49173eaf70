/// Control-flow graphs of machine code, read from the assembly LLVM prints for x86-64,
/// AArch64 and RISC-V 64, where a block is the code under a `.LBB` label and the edges are
/// the jumps to those labels and the falls into the next block.
extension ControlFlowGraph {
  /// Jumps that always go to their target (`jmp`, `b`, `j`; `tail` is a call that does not
  /// come back).
  private static let unconditionalJumps: Set<Substring> = ["jmp", "jmpq", "b", "j", "br", "jr", "tail"]
  /// Instructions after which nothing runs in the block's order: returns and traps.
  private static let ends: Set<Substring> = ["ret", "retq", "ud2", "brk", "unimp", "hlt"]

  /// The graphs of the functions in `assembly` (`build --emit asm`'s text), in order.
  public static func graphs(ofAssembly assembly: String) -> [ControlFlowGraph] {
    var graphs: [ControlFlowGraph] = []
    var current: (name: String, lines: [Substring])?
    for line in assembly.split(separator: "\n") {
      if let label = Self.label(line), !label.hasPrefix(".") {
        if let function = current { graphs.append(ControlFlowGraph(function: function.name, assemblyLines: function.lines)) }
        current = (label, [])
      } else if line.hasPrefix(".Lfunc_end") {
        if let function = current { graphs.append(ControlFlowGraph(function: function.name, assemblyLines: function.lines)) }
        current = nil
      } else {
        current?.lines.append(line)
      }
    }
    if let function = current { graphs.append(ControlFlowGraph(function: function.name, assemblyLines: function.lines)) }
    return graphs
  }

  /// The graph of one function's lines after its label: its entry block is named after it.
  init(function: String, assemblyLines lines: [Substring]) {
    self.function = function
    blocks = [Block(label: function, instructions: [])]
    for line in lines {
      if let label = Self.label(line) {
        if label.hasPrefix(".LBB") { blocks.append(Block(label: label, instructions: [])) }
      } else if let instruction = Self.instruction(line) {
        if let previous = blocks[blocks.count - 1].instructions.last, Self.endsBlock(previous, before: instruction) {
          // Code after a jump without a label of its own: a block only fallen into.
          blocks.append(Block(label: "\(function).\(blocks.count)", instructions: []))
        }
        blocks[blocks.count - 1].instructions.append(instruction)
      }
    }
    if blocks.count > 1 && blocks[0].instructions.isEmpty { blocks.removeFirst() }
    let index = Dictionary(blocks.enumerated().map { ($1.label, $0) }, uniquingKeysWith: { first, _ in first })
    edges = []
    for position in blocks.indices {
      edges += Self.edges(leaving: position, of: blocks, labels: index)
    }
    markBackEdges()
  }

  /// The edges out of block `position`: a conditional jump's target (T) and its way on (F),
  /// an unconditional jump's target, or the next block.
  private static func edges(leaving position: Int, of blocks: [Block], labels: [String: Int]) -> [Edge] {
    let instructions = blocks[position].instructions
    let next = position + 1 < blocks.count ? position + 1 : nil
    var last = instructions.last.map(parts)
    var jump: Int?
    var fallsThrough = next != nil
    if let final = last, unconditionalJumps.contains(final.mnemonic) {
      jump = final.target.flatMap { labels[$0] }
      fallsThrough = false
      last = instructions.count > 1 ? parts(instructions[instructions.count - 2]) : nil
    } else if let final = last, ends.contains(final.mnemonic) {
      return []
    }
    let onward = jump ?? (fallsThrough ? next : nil)
    if let branch = last, !unconditionalJumps.contains(branch.mnemonic), let target = branch.target.flatMap({ labels[$0] }) {
      var result = [Edge(from: position, to: target, kind: .whenTrue, isBack: false)]
      if let onward { result.append(Edge(from: position, to: onward, kind: .whenFalse, isBack: false)) }
      return result
    }
    return onward.map { [Edge(from: position, to: $0, kind: .always, isBack: false)] } ?? []
  }

  /// Whether `instruction` ends its block when `next` follows: a jump or a return does,
  /// except a conditional jump followed by the unconditional one that is its way on.
  private static func endsBlock(_ instruction: String, before next: String) -> Bool {
    let (mnemonic, target) = parts(instruction)
    if unconditionalJumps.contains(mnemonic) || ends.contains(mnemonic) { return true }
    return target != nil && !unconditionalJumps.contains(parts(next).mnemonic)
  }

  /// An instruction's mnemonic and its last operand, when that is a label.
  private static func parts(_ instruction: String) -> (mnemonic: Substring, target: String?) {
    let fields = instruction.split(whereSeparator: { $0 == " " || $0 == "," })
    let target = fields.count > 1 && fields.last!.hasPrefix(".L") ? String(fields.last!) : nil
    return (fields.first ?? "", target)
  }

  /// The label a line declares (`fib:`, `.LBB0_2:`, `"binary:":`), if it is a label line.
  private static func label(_ line: Substring) -> String? {
    guard let first = line.first, first != "\t", first != " ", line.hasSuffix(":") else { return nil }
    let name = line.dropLast()
    return name.hasPrefix("\"") && name.hasSuffix("\"") && name.count > 1 ? String(name.dropFirst().dropLast()) : String(name)
  }

  /// An instruction line without its indentation and comment; nil for a directive, a
  /// comment or a blank line.
  private static func instruction(_ line: Substring) -> String? {
    let text = line.drop { $0 == "\t" || $0 == " " }
    guard let first = text.first, first != ".", first != "#", first != ";", !text.hasPrefix("//") else { return nil }
    // A comment is `# text` (x86-64, RISC-V) or `// text` (AArch64, whose immediates are
    // `#1`, with no space after the `#`).
    var code = String(text.replacing("\t", with: " "))
    for marker in [" # ", " // "] {
      if let comment = code.firstRange(of: marker) { code = String(code[..<comment.lowerBound]) }
    }
    return code.trimmingSuffix(" ")
  }
}

extension StringProtocol {
  /// Without the trailing `character`s.
  fileprivate func trimmingSuffix(_ character: Character) -> String {
    String(reversed().drop { $0 == character }.reversed())
  }
}
