/// What the assembly view leaves out for people (SPEC §7), as Compiler Explorer does: each
/// is hidden unless its flag is false (`"filters": {"directives": false}` in the API).
struct AssemblyFilters: Decodable, Sendable, Equatable {
  /// Lines such as `.p2align`, `.globl`, `.section` and data (`.quad`), and the labels of
  /// data that is then hidden (a constant pool's `.LCPI0_0:`).
  var directives = true
  /// Local labels (`.L...`) that no instruction names, such as `.Lfunc_end0:`.
  var labels = true
  /// Comment lines, and comments after an instruction.
  var comments = true

  init(directives: Bool = true, labels: Bool = true, comments: Bool = true) {
    (self.directives, self.labels, self.comments) = (directives, labels, comments)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    directives = try container.decodeIfPresent(Bool.self, forKey: .directives) ?? true
    labels = try container.decodeIfPresent(Bool.self, forKey: .labels) ?? true
    comments = try container.decodeIfPresent(Bool.self, forKey: .comments) ?? true
  }

  private enum CodingKeys: String, CodingKey {
    case directives, labels, comments
  }

  /// The listing's lines, each with its source line, without what is filtered.
  func apply(to listing: [(Substring, Int)]) -> [(Substring, Int)] {
    var kept = listing
    if comments {
      kept = kept.compactMap { line, source in Self.withoutComment(line).map { ($0, source) } }
    }
    if directives {
      kept = kept.filter { line, _ in !Self.isDirective(line) }
      kept = kept.indices.compactMap { index in
        // A label with no instruction under it labelled data that is now hidden.
        guard Self.label(kept[index].0)?.hasPrefix(".L") == true else { return kept[index] }
        let next = kept[(index + 1)...].first { !$0.0.allSatisfy(\.isWhitespace) }
        return next == nil || Self.label(next!.0) != nil ? nil : kept[index]
      }
    }
    if labels {
      var named = Set<Substring>()
      for (line, _) in kept where line.hasPrefix("\t") { Self.collectLocalLabels(in: line, into: &named) }
      kept = kept.filter { line, _ in
        guard let name = Self.label(line), name.hasPrefix(".L") else { return true }
        return named.contains(name)
      }
    }
    return kept
  }

  /// Adds the local labels (`.L...`) that `line` names to `names`: each `.L` and the
  /// letters, digits, `_`, `.` and `$` after it, as in `.LBB0_2` or `.LJTI4_0-.LBB4_7`.
  static func collectLocalLabels(in line: Substring, into names: inout Set<Substring>) {
    let bytes = line.utf8
    var index = bytes.startIndex
    while let dot = bytes[index...].firstIndex(of: UInt8(ascii: ".")) {
      var end = bytes.index(after: dot)
      guard end < bytes.endIndex, bytes[end] == UInt8(ascii: "L") else {
        index = end
        continue
      }
      while end < bytes.endIndex, isLabelByte(bytes[end]) { end = bytes.index(after: end) }
      names.insert(line[dot..<end])
      index = end
    }
  }

  private static func isLabelByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "$"):
      true
    default: false
    }
  }

  /// The name a label line declares, if it is one (`f:`, `.LBB0_2:`).
  static func label(_ line: Substring) -> Substring? {
    guard let first = line.first, first != "\t", first != " ", line.hasSuffix(":") else { return nil }
    return line.dropLast()
  }

  /// An indented line starting with `.`: `.p2align 4`, `.quad 0x...`, `.functype ...`.
  static func isDirective(_ line: Substring) -> Bool {
    (line.first == "\t" || line.first == " ") && line.drop { $0 == "\t" || $0 == " " }.first == "."
  }

  /// The line without its comment (`# ...` on x86-64, RISC-V and wasm32, `// ...` on
  /// AArch64); nil for a line that was only a comment.
  static func withoutComment(_ line: Substring) -> Substring? {
    let text = line.drop { $0 == "\t" || $0 == " " }
    if text.hasPrefix("#") || text.hasPrefix("//") || text.hasPrefix(";") { return nil }
    // Most lines have no comment: one pass over their bytes instead of a search per marker.
    guard line.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "/") }) else { return line }
    for marker in ["\t#", " # ", "\t//", " // "] {
      if let comment = line.firstRange(of: marker) {
        var kept = line[..<comment.lowerBound]
        while kept.last == " " || kept.last == "\t" { kept = kept.dropLast() }
        return kept
      }
    }
    return line
  }
}
