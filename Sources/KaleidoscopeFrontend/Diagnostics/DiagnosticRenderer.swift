/// Renders diagnostics the way clang does, so editors and people read them alike:
///
///     fib.ks:3:7: error: unknown variable 'y'
///       x + y
///           ^
///
/// The first line is `FILE:LINE:COLUMN: severity: message`; then the source line and a caret
/// under the column, with `~` under the rest of the range on that line. As clang does, the
/// line shows a control character as `<U+0001>` and a byte that is not UTF-8 as `<FF>`, so
/// that printing it cannot garble the terminal, and a line too long to read is cut to the
/// part around the caret (`SourceLineDisplay`).
public struct DiagnosticRenderer: Sendable {
  /// Whether to use ANSI colours (decided by the caller: terminal, `NO_COLOR`, `--color`).
  public var useColor: Bool

  public init(useColor: Bool) {
    self.useColor = useColor
  }

  /// The full text of a diagnostic and its notes, ending with a newline.
  public func render(_ diagnostic: Diagnostic) -> String {
    var out = ""
    renderEntry(
      into: &out, severity: diagnostic.severity, message: diagnostic.message.text,
      file: diagnostic.file, range: diagnostic.range)
    for note in diagnostic.notes {
      if let file = note.file, let range = note.range {
        renderEntry(into: &out, severity: .note, message: note.message.text, file: file, range: range)
      } else {
        // A note about the diagnostic as a whole carries its location (so editors attach it
        // to the same place) without repeating the source line.
        renderEntry(
          into: &out, severity: .note, message: note.message.text, file: diagnostic.file,
          range: diagnostic.range, showSource: false)
      }
    }
    return out
  }

  /// `N errors generated.`, as clang ends a failed compilation; empty when there are none.
  public func summary(errorCount: Int) -> String {
    errorCount == 0 ? "" : "\(errorCount) error\(errorCount == 1 ? "" : "s") generated.\n"
  }

  private func renderEntry(
    into out: inout String, severity: Severity, message: String, file: SourceFile,
    range: SourceRange?, showSource: Bool = true
  ) {
    if let range {
      out += style(.bold, "\(file.name):\(file.location(of: range.start)): ")
    } else {
      out += style(.bold, "\(file.name): ")
    }
    out += style(severity.color, "\(severity.rawValue): ")
    out += style(.bold, message)
    out += "\n"
    if let range, showSource { out += snippet(file: file, range: range) }
  }

  /// The source line containing the range's start and the caret line under it.
  private func snippet(file: SourceFile, range: SourceRange) -> String {
    let location = file.location(of: range.start)
    let line = SourceLineDisplay(file.lineText(location.line))
    let caret = location.column - 1
    let (text, marker) = line.window(caret: caret, end: max(caret + 1, caret + range.length))
    return text + "\n" + style(.caret, marker) + "\n"
  }

  private func style(_ style: Style, _ text: String) -> String {
    guard useColor, !text.isEmpty else { return text }
    return style.escape + text + "\u{1B}[0m"
  }

  /// The ANSI styles diagnostics use, matching clang's colours.
  enum Style {
    case bold, red, magenta, cyan, caret
    var escape: String {
      switch self {
      case .bold: "\u{1B}[1m"
      case .red: "\u{1B}[1;31m"
      case .magenta: "\u{1B}[1;35m"
      case .cyan: "\u{1B}[1;36m"
      case .caret: "\u{1B}[1;32m"
      }
    }
  }
}

extension Severity {
  fileprivate var color: DiagnosticRenderer.Style {
    switch self {
    case .error: .red
    case .warning: .magenta
    case .note: .cyan
    }
  }
}
