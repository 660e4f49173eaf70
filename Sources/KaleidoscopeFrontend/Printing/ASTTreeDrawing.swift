/// The text of `kaleidoscope ast --tree`: each item drawn top-down as an ASCII tree, the
/// way the seed's parser article pictures `x + y * 2 + (4 + 5) / 3`:
///
///          ___+___
///         /       \
///       _+_       _/_
///      /   \     /   \
///      x   *     +   3
///         / \   / \
///         y 2   4 5
///
/// Large items are not drawn (a drawing wider than a screen helps nobody); `ast` without
/// `--tree` prints those.
public enum ASTTreeDrawing {
  /// Items with more nodes than this are summarised instead of drawn.
  public static let maxNodes = 400

  public static func render(_ tree: SyntaxTree) -> String {
    var drawings: [String] = []
    for index in tree.items.indices {
      let root = SyntaxNode(.item(index))
      let size = nodeCount(root, in: tree)
      if size > maxNodes {
        drawings.append("\(ASTDump.label(of: root, in: tree)): \(size) nodes, too large to draw (use `ast` without --tree)\n")
      } else {
        drawings.append(box(root, in: tree).lines.map(trimmed).joined(separator: "\n") + "\n")
      }
    }
    return drawings.joined(separator: "\n")
  }

  /// A drawn subtree: lines of equal width and the column its root label is centred on.
  struct Box {
    var lines: [[UInt8]]
    var width: Int
    var center: Int
  }

  private static func nodeCount(_ root: SyntaxNode, in tree: SyntaxTree) -> Int {
    var count = 0
    var stack = [root]
    while let node = stack.popLast(), count <= maxNodes {
      count += 1
      stack += tree.children(of: node)
    }
    return count + stack.count
  }

  private static func label(of node: SyntaxNode, in tree: SyntaxTree) -> String {
    switch node.reference {
    case .item(let index):
      switch tree.items[index] {
      case .definition(let definition): return "def \(tree.describe(definition.prototype))"
      case .brokenDefinition(let prototype): return "def \(tree.describe(prototype)) (invalid)"
      case .external(let prototype): return "extern \(tree.describe(prototype))"
      case .expression: return "top-level"
      case .globals: return "var"
      }
    case .binding(let binding):
      switch binding.value {
      case .number: return "\(tree.text(binding.name))="
      case .zeros: return "\(tree.text(binding.name))[]"
      case .elements: return "\(tree.text(binding.name))[]="
      }
    case .loopVariable(let loop): return "\(tree.text(loop.variable))="
    case .expr(let id):
      switch tree[id] {
      case .call(let callee, _): return "\(tree.text(callee))()"
      case .ifElse: return "if"
      case .loop(let index): return tree.loop(index).keyword.spelling
      case .varIn, .globalDeclaration: return "var"
      case .element(let array, _): return "\(tree.text(array))[]"
      case .storeElement(let array, _, _): return "\(tree.text(array))[]="
      case .length(let array): return "len(\(tree.text(array)))"
      case .arrayLiteral: return "[...]"
      case .error: return "<error>"
      case .number, .variable, .unary, .binary, .assign, .string: return tree.spelling(of: id)
      }
    }
  }

  /// Draws a node over its children. Depth is bounded by `maxNodes`.
  static func box(_ node: SyntaxNode, in tree: SyntaxTree) -> Box {
    // A top-level expression or declaration is drawn as its node.
    if case .item(let index) = node.reference {
      switch tree.items[index] {
      case .expression(let id), .globals(let id): return box(SyntaxNode(.expr(id)), in: tree)
      case .definition, .external, .brokenDefinition: break
      }
    }
    let text = Array(label(of: node, in: tree).utf8)
    let children = tree.children(of: node).map { box($0, in: tree) }
    guard !children.isEmpty else {
      return Box(lines: [text], width: text.count, center: (text.count - 1) / 2)
    }
    return join(label: text, over: children)
  }

  private static func join(label: [UInt8], over children: [Box]) -> Box {
    let gap = 2
    var offsets: [Int] = []
    var width = 0
    for child in children {
      offsets.append(width == 0 ? 0 : width + gap)
      width = offsets.last! + child.width
    }
    let centers = children.indices.map { offsets[$0] + children[$0].center }
    let parentCenter = (centers.first! + centers.last!) / 2
    var labelStart = parentCenter - (label.count - 1) / 2
    var shift = 0
    if labelStart < 0 {
      shift = -labelStart
      labelStart = 0
    }
    let totalWidth = max(width + shift, labelStart + label.count)
    let space = UInt8(ascii: " ")
    var top = [UInt8](repeating: space, count: totalWidth)
    var connectors = top
    let first = centers.first! + shift
    let last = centers.last! + shift
    for column in (first + 1)..<max(first + 1, last) { top[column] = UInt8(ascii: "_") }
    top.replaceSubrange(labelStart..<(labelStart + label.count), with: label)
    for (index, center) in centers.enumerated() {
      let column = center + shift
      connectors[column] =
        children.count == 1 || (index != 0 && index != children.count - 1)
        ? UInt8(ascii: "|") : (index == 0 ? UInt8(ascii: "/") : UInt8(ascii: "\\"))
    }
    var lines = [top, connectors]
    let height = children.map(\.lines.count).max()!
    for row in 0..<height {
      var line = [UInt8](repeating: space, count: totalWidth)
      for (index, child) in children.enumerated() where row < child.lines.count {
        let start = offsets[index] + shift
        line.replaceSubrange(start..<(start + child.width), with: child.lines[row])
      }
      lines.append(line)
    }
    return Box(lines: lines, width: totalWidth, center: labelStart + (label.count - 1) / 2)
  }

  private static func trimmed(_ line: [UInt8]) -> String {
    var end = line.count
    while end > 0 && line[end - 1] == UInt8(ascii: " ") { end -= 1 }
    return String(decoding: line[..<end], as: UTF8.self)
  }
}
