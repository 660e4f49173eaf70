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

  private struct Edit {
    enum Kind { case same, deleted, inserted }
    var kind: Kind
    /// The line in the old text (for `.same` and `.deleted`), or where the insertion is.
    var oldLine: Int
    var newLine: Int
  }

  /// The most cells the longest-common-subsequence table may have (16 MB of it); past that,
  /// the lines between the common prefix and suffix are shown as all replaced, which is
  /// correct but not the shortest diff.
  static let tableLimit = 4_000_000

  /// The edits from `a` to `b` along a longest common subsequence of lines, after the
  /// common prefix and suffix (which formatting leaves long) are set aside. Within a change,
  /// deleted lines come before inserted ones, as `diff -u` prints them.
  private static func script(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>]) -> [Edit] {
    var prefix = 0
    while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
      suffix += 1
    }
    let n = a.count - prefix - suffix
    let m = b.count - prefix - suffix
    var edits = (0..<prefix).map { Edit(kind: .same, oldLine: $0, newLine: $0) }
    guard (n + 1) * (m + 1) <= tableLimit else {
      edits += (0..<n).map { Edit(kind: .deleted, oldLine: prefix + $0, newLine: prefix) }
      edits += (0..<m).map { Edit(kind: .inserted, oldLine: prefix + n, newLine: prefix + $0) }
      for k in 0..<suffix { edits.append(Edit(kind: .same, oldLine: a.count - suffix + k, newLine: b.count - suffix + k)) }
      return edits
    }
    // lengths[i * (m + 1) + j]: the longest common subsequence of a[prefix + i...] and
    // b[prefix + j...].
    var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i * (m + 1) + j] =
          a[prefix + i] == b[prefix + j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1 : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
      }
    }
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n && j < m && a[prefix + i] == b[prefix + j] {
        edits.append(Edit(kind: .same, oldLine: prefix + i, newLine: prefix + j))
        i += 1
        j += 1
      } else if i < n && (j == m || lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1]) {
        edits.append(Edit(kind: .deleted, oldLine: prefix + i, newLine: prefix + j))
        i += 1
      } else {
        edits.append(Edit(kind: .inserted, oldLine: prefix + i, newLine: prefix + j))
        j += 1
      }
    }
    for k in 0..<suffix { edits.append(Edit(kind: .same, oldLine: a.count - suffix + k, newLine: b.count - suffix + k)) }
    return edits
  }
}
