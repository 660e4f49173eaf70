/// A unified diff of two texts, as `diff -u` prints it, for `fmt --diff`.
public enum UnifiedDiff {
  /// The diff from `old` to `new`, with `context` unchanged lines around each change;
  /// empty when they are equal.
  public static func make(old: [UInt8], new: [UInt8], oldName: String, newName: String, context: Int = 3) -> String {
    let a = lines(old)
    let b = lines(new)
    let edits = script(a, b)
    guard edits.contains(where: { $0.kind != .same }) else { return "" }
    var out = "--- \(oldName)\n+++ \(newName)\n"
    var index = 0
    while index < edits.count {
      guard edits[index].kind != .same else {
        index += 1
        continue
      }
      // A hunk: from `context` lines before this change to `context` after the last change
      // that is within 2 * context lines of the one before it.
      let start = max(0, index - context)
      var end = index
      var last = index
      while end < edits.count {
        if edits[end].kind != .same { last = end }
        if end - last > 2 * context { break }
        end += 1
      }
      end = min(edits.count, last + context + 1)
      let hunk = edits[start..<end]
      let oldStart = hunk.first!.oldLine
      let newStart = hunk.first!.newLine
      let oldCount = hunk.filter { $0.kind != .inserted }.count
      let newCount = hunk.filter { $0.kind != .deleted }.count
      out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
      for edit in hunk {
        switch edit.kind {
        case .same: out += " " + text(a[edit.oldLine])
        case .deleted: out += "-" + text(a[edit.oldLine])
        case .inserted: out += "+" + text(b[edit.newLine])
        }
      }
      index = end
    }
    return out
  }

  /// A run of changed lines: lines `old` of the old text (0-based) became lines `new` of the
  /// new text.
  public struct LineChange: Sendable, Equatable {
    public var old: Range<Int>
    public var new: Range<Int>

    public init(old: Range<Int>, new: Range<Int>) {
      self.old = old
      self.new = new
    }
  }

  /// The runs of changed lines from `old` to `new` (what an editor applies as text edits).
  public static func changes(old: [UInt8], new: [UInt8]) -> [LineChange] {
    var changes: [LineChange] = []
    var current: LineChange?
    for edit in script(lines(old), lines(new)) {
      switch edit.kind {
      case .same:
        if let change = current { changes.append(change) }
        current = nil
      case .deleted:
        if current == nil { current = LineChange(old: edit.oldLine..<edit.oldLine, new: edit.newLine..<edit.newLine) }
        current!.old = current!.old.lowerBound..<edit.oldLine + 1
      case .inserted:
        if current == nil { current = LineChange(old: edit.oldLine..<edit.oldLine, new: edit.newLine..<edit.newLine) }
        current!.new = current!.new.lowerBound..<edit.newLine + 1
      }
    }
    if let change = current { changes.append(change) }
    return changes
  }

  private static func range(_ start: Int, _ count: Int) -> String {
    count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
  }

  private static func text(_ line: ArraySlice<UInt8>) -> String {
    let text = String(decoding: line, as: UTF8.self)
    return text.hasSuffix("\n") ? text : text + "\n\\ No newline at end of file\n"
  }

  private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(bytes[start...offset])
      start = offset + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    return lines
  }

  /// One line of the edit script: kept, deleted or inserted.
  private struct Edit {
    /// Whether the line is in both texts, only the old one or only the new one.
    enum Kind { case same, deleted, inserted }
    var kind: Kind
    /// The line in the old text (for `.same` and `.deleted`), or where the insertion is.
    var oldLine: Int
    var newLine: Int
  }

  /// The edits from `a` to `b`, from the standard library's `difference(from:)` (Myers's
  /// algorithm: a shortest edit script, with no size limit). Within a change, deleted lines
  /// come before inserted ones, as `diff -u` prints them.
  private static func script(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>]) -> [Edit] {
    var removed = [Bool](repeating: false, count: a.count)
    var inserted = [Bool](repeating: false, count: b.count)
    // The search compares lines many times over: each line is hashed once to a number, and
    // the numbers are compared instead.
    var numbers: [ArraySlice<UInt8>: Int] = [:]
    let number = { (line: ArraySlice<UInt8>) in
      if let known = numbers[line] { return known }
      numbers[line] = numbers.count
      return numbers.count - 1
    }
    let (oldLines, newLines) = (a.map(number), b.map(number))
    for change in newLines.difference(from: oldLines) {
      switch change {
      case .remove(let offset, _, _): removed[offset] = true
      case .insert(let offset, _, _): inserted[offset] = true
      }
    }
    var edits: [Edit] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count && removed[i] {
        edits.append(Edit(kind: .deleted, oldLine: i, newLine: j))
        i += 1
      } else if j < b.count && inserted[j] {
        edits.append(Edit(kind: .inserted, oldLine: i, newLine: j))
        j += 1
      } else {
        edits.append(Edit(kind: .same, oldLine: i, newLine: j))
        i += 1
        j += 1
      }
    }
    return edits
  }
}
