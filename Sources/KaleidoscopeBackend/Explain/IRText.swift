/// Reading LLVM's textual IR, for the views that explain it.
public enum IRText {
  /// The IR name, among `known`, of the function a user calls `name`: the name itself, or
  /// its `.ks` form (a definition named as a C library function,
  /// `IRGenerator.definitionName`).
  public static func functionName(_ name: String, among known: some Collection<String>) -> String? {
    [name, "\(name).ks"].first { known.contains($0) }
  }

  /// The functions defined in `ir`, in order, each from its `define` line to its closing `}`.
  static func functions(in ir: Substring) -> [(name: String, text: String)] {
    var result: [(name: String, text: String)] = []
    var lines = lines(of: ir)[...]
    while let start = lines.firstIndex(where: { $0.hasPrefix("define ") }) {
      let end = lines[start...].firstIndex { $0 == "}" } ?? lines.index(before: lines.endIndex)
      if let name = functionName(lines[start]) { result.append((name, lines[start...end].joined(separator: "\n") + "\n")) }
      lines = lines[lines.index(after: end)...]
    }
    return result
  }

  /// The lines of `text`, without their line feeds. Split on the byte: IR's logs run to
  /// megabytes, and splitting on the `Character` walks grapheme clusters.
  static func lines(of text: Substring) -> [Substring] {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
  }

  /// The same, by name.
  static func functionsByName(in ir: Substring) -> [String: String] {
    Dictionary(functions(in: ir).map { ($0.name, $0.text) }, uniquingKeysWith: { _, last in last })
  }

  /// The name in `define ... @name(`, unquoted.
  static func functionName(_ line: Substring) -> String? {
    guard let at = line.firstIndex(of: "@") else { return nil }
    return symbol(line[line.index(after: at)...])
  }

  /// The name at the start of `text` (after its sigil): `"quoted name"` unquoted, or the
  /// run of characters an unquoted LLVM name may have.
  static func symbol(_ text: Substring) -> String? {
    if text.hasPrefix("\"") {
      let quoted = text.dropFirst()
      return quoted.firstIndex(of: "\"").map { String(quoted[..<$0]) }
    }
    let name = text.prefix { $0.isLetter || $0.isNumber || "$._-".contains($0) }
    return name.isEmpty ? nil : String(name)
  }
}
