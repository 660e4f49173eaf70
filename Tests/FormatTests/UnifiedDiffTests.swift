import KaleidoscopeFormat
import TestSupport
import Testing

/// `fmt --diff`: the diff, applied to the old text as `patch` would, gives the new text; its
/// hunk headers count the lines they hold; deletions come before insertions.
@Suite("Unified diff")
struct UnifiedDiffTests {
  /// Applies a unified diff to `old`, checking every context and deleted line against it.
  static func apply(_ diff: String, to old: [String]) -> [String]? {
    var lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard lines.count >= 2, lines[0].hasPrefix("--- "), lines[1].hasPrefix("+++ ") else { return nil }
    var result: [String] = []
    var position = 0  // the next old line not yet copied
    var index = 2
    while index < lines.count {
      // @@ -start,count +start,count @@
      let header = lines[index].split(separator: " ")
      guard header.count == 4, header[0] == "@@", header[3] == "@@" else { return nil }
      let oldRange = header[1].dropFirst().split(separator: ",").compactMap { Int($0) }
      let newRange = header[2].dropFirst().split(separator: ",").compactMap { Int($0) }
      let oldCount = oldRange.count > 1 ? oldRange[1] : 1
      let newCount = newRange.count > 1 ? newRange[1] : 1
      let oldStart = oldCount == 0 ? oldRange[0] : oldRange[0] - 1
      guard oldStart >= position else { return nil }
      result += old[position..<oldStart]
      position = oldStart
      index += 1
      var (seenOld, seenNew, sawInsertion) = (0, 0, false)
      while index < lines.count && !lines[index].hasPrefix("@@") {
        let line = lines[index]
        let text = String(line.dropFirst())
        switch line.first {
        case " ":
          guard position < old.count, old[position] == text else { return nil }
          result.append(text)
          (position, seenOld, seenNew, sawInsertion) = (position + 1, seenOld + 1, seenNew + 1, false)
        case "-":
          guard position < old.count, old[position] == text, !sawInsertion else { return nil }
          (position, seenOld) = (position + 1, seenOld + 1)
        case "+":
          result.append(text)
          (seenNew, sawInsertion) = (seenNew + 1, true)
        default:
          return nil
        }
        index += 1
      }
      guard seenOld == oldCount, seenNew == newCount else { return nil }
    }
    return result + old[position...]
  }

  static func diff(_ old: [String], _ new: [String]) -> String {
    let text = { (lines: [String]) in Array(lines.map { $0 + "\n" }.joined().utf8) }
    return UnifiedDiff.make(old: text(old), new: text(new), oldName: "a", newName: "b")
  }

  /// A long file with scattered changes gets the shortest diff, however long it is (the
  /// diff has no size limit: 3,000 lines each side, past any table of lines by lines).
  @Test func aLongFileGetsItsShortestDiff() throws {
    let old = (0..<3000).map { "line \($0)" }
    var new = old
    for index in stride(from: 5, to: 3000, by: 100) { new[index] = "changed \(index)" }
    let diff = Self.diff(old, new)
    let lines = diff.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count == 30)
    #expect(lines.filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count == 30)
    #expect(Self.apply(diff, to: old) == new)
  }

  @Test(arguments: 1...200 as ClosedRange<UInt64>)
  func appliesToGiveTheNewText(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let alphabet = ["a", "b", "c", "d", "e"]
    let old = (0..<Int(random.next() % 30)).map { _ in alphabet[Int(random.next() % 5)] }
    var new = old
    for _ in 0..<Int(random.next() % 6) {
      let at = new.isEmpty ? 0 : Int(random.next() % UInt64(new.count))
      switch random.next() % 3 {
      case 0: new.insert(alphabet[Int(random.next() % 5)], at: at)
      case 1: if !new.isEmpty { new.remove(at: at) }
      default: if !new.isEmpty { new[at] = "x" }
      }
    }
    let diff = Self.diff(old, new)
    if old == new {
      #expect(diff.isEmpty)
    } else {
      #expect(Self.apply(diff, to: old) == new, "seed \(seed):\n\(diff)")
    }
  }

  @Test func aLargeChangeIsShownAsReplacedLines() {
    let old = (0..<3000).map { "old \($0)" }
    let new = ["first"] + (0..<3000).map { "new \($0)" } + ["last"]
    let diff = Self.diff(old, new)
    #expect(Self.apply(diff, to: old) == new)
  }

  @Test func aMissingNewlineAtTheEndIsMarked() {
    let diff = UnifiedDiff.make(old: Array("x".utf8), new: Array("x\n".utf8), oldName: "a", newName: "b")
    #expect(diff == "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n")
  }
}
