/// Diagnostics as JSON lines, one object per diagnostic or note, for programs that read them
/// (the playground's sandboxed side writes these, the server parses them):
///
///     {"line":3,"column":7,"endLine":3,"endColumn":8,"severity":"error","message":"unknown variable 'y'"}
///
/// Lines and columns count from 1; columns count bytes, as in the text format. The end is
/// exclusive.
public enum DiagnosticJSON {
  /// Every diagnostic in `diagnostics`, in source order, each followed by its notes.
  public static func render(_ diagnostics: DiagnosticBag) -> String {
    var out = ""
    for diagnostic in diagnostics.sorted {
      out += line(diagnostic.severity, diagnostic.message.text, in: diagnostic.file, at: diagnostic.range)
      for note in diagnostic.notes {
        out += line(.note, note.message.text, in: note.file ?? diagnostic.file, at: note.range ?? diagnostic.range)
      }
    }
    return out
  }

  private static func line(_ severity: Severity, _ message: String, in file: SourceFile, at range: SourceRange) -> String {
    let start = file.location(of: range.start)
    let end = file.location(of: range.end)
    return "{\"line\":\(start.line),\"column\":\(start.column),\"endLine\":\(end.line),\"endColumn\":\(end.column),"
      + "\"severity\":\"\(severity.rawValue)\",\"message\":\(quoted(message))}\n"
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
