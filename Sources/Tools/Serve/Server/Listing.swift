import Foundation

/// Turns the sandboxed side's output into what the page shows: IR and assembly without the
/// debug-information noise, each line tagged with the source line it came from (as Compiler
/// Explorer does), and diagnostics parsed from their JSON lines.
enum Listing {
  /// IR printed with debug information: the `!dbg` attachments and the metadata go, and each
  /// instruction keeps the line of its `!DILocation`.
  static func ir(_ text: String) -> (text: String, lines: [Int]) {
    let all = splitLines(text)
    var locations: [Substring: Int] = [:]
    for line in all where line.hasPrefix("!") && find("= !DILocation(line: ", in: line) != nil {
      let id = line.prefix { $0 != " " }
      if let number = integer(after: "line: ", in: line) { locations[id] = number }
    }
    var out: [Substring] = []
    var lines: [Int] = []
    for line in all {
      let trimmed = line.drop { $0 == " " }
      if line.hasPrefix("!") || trimmed.hasPrefix("#dbg_") || line.hasPrefix("declare void @llvm.dbg") { continue }
      guard let range = find(", !dbg ", in: line) ?? find(" !dbg ", in: line) else {
        out.append(line)
        lines.append(0)
        continue
      }
      let id = line[range.upperBound...].prefix { $0 != " " && $0 != "," }
      var kept = line[..<range.lowerBound]
      let rest = line[range.upperBound...].dropFirst(id.count)
      if !rest.isEmpty { kept = Substring(String(kept) + String(rest)) }
      out.append(kept)
      lines.append(locations[id] ?? 0)
    }
    return trimmingTrailingBlankLines(out, lines)
  }

  /// Assembly printed with debug information: `.loc` directives give the line of what
  /// follows; they, CFI directives and the debug sections go. Then, as `filters` says,
  /// directives, unused labels and comments (SPEC §7).
  static func assembly(_ text: String, filters: AssemblyFilters = AssemblyFilters()) -> (text: String, lines: [Int]) {
    var out: [Substring] = []
    var lines: [Int] = []
    var current = 0
    for line in splitLines(text) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix(".section") && find(".debug_", in: trimmed) != nil { break }
      if trimmed.hasPrefix(".loc\t") || trimmed.hasPrefix(".loc ") {
        let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if fields.count > 2, let number = Int(fields[2]) { current = number }
        continue
      }
      if trimmed.hasPrefix(".cfi_") || trimmed.hasPrefix(".file") || trimmed.hasPrefix(".Ltmp")
        || trimmed.hasPrefix(".Lfunc_begin") || trimmed.hasPrefix(".Ldebug")
      {
        continue
      }
      let isInstruction = line.hasPrefix("\t") && !trimmed.hasPrefix(".")
      out.append(line)
      lines.append(isInstruction ? current : 0)
    }
    let filtered = filters.apply(to: Array(zip(out, lines)))
    return trimmingTrailingBlankLines(filtered.map(\.0), filtered.map(\.1))
  }

  /// Splits the sandboxed side's standard error into its diagnostics (JSON lines) and the
  /// rest (runtime errors, the sandbox's own messages).
  static func diagnostics(in stderr: String) -> (diagnostics: [DiagnosticEntry], rest: String) {
    var diagnostics: [DiagnosticEntry] = []
    var rest = ""
    for line in stderr.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("{\"line\":"), let entry = try? JSON.decoder.decode(DiagnosticEntry.self, from: Data(line.utf8)) {
        diagnostics.append(entry)
      } else {
        rest += line + "\n"
      }
    }
    return (diagnostics, rest)
  }

  /// The lines of `text`, split on its newline bytes (the last one empty after a final
  /// newline): splitting by `Character` cost more than the rest of a listing.
  static func splitLines(_ text: String) -> [Substring] {
    var lines: [Substring] = []
    var start = text.startIndex
    while let newline = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(text[start..<newline])
      start = text.utf8.index(after: newline)
    }
    lines.append(text[start...])
    return lines
  }

  /// Where `needle` first is in `line`, found by its bytes: Foundation's `range(of:)` made
  /// an `NSString` of every line it searched.
  static func find(_ needle: String, in line: Substring) -> Range<String.Index>? {
    let (bytes, pattern) = (line.utf8, needle.utf8)
    guard let first = pattern.first else { return nil }
    var from = bytes.startIndex
    while let start = bytes[from...].firstIndex(of: first) {
      if bytes[start...].starts(with: pattern) { return start..<bytes.index(start, offsetBy: pattern.count) }
      from = bytes.index(after: start)
    }
    return nil
  }

  private static func integer(after marker: String, in line: Substring) -> Int? {
    guard let range = find(marker, in: line) else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
  }

  private static func trimmingTrailingBlankLines(_ text: [Substring], _ lines: [Int]) -> (text: String, lines: [Int]) {
    var count = text.count
    while count > 0 && text[count - 1].allSatisfy(\.isWhitespace) { count -= 1 }
    return (text.prefix(count).joined(separator: "\n") + (count > 0 ? "\n" : ""), Array(lines.prefix(count)))
  }
}
