import KaleidoscopeFrontend

/// `kaleidoscope fmt`: Kaleidoscope source in its one canonical layout (docs/STYLE.md).
///
/// Formatting never changes what a program means: the tokens are the source's, in order
/// (only semicolons that separate nothing are dropped, and commas between parameters
/// added), the tree of the result is the tree of the source, and formatting the result
/// again changes nothing. A file with syntax errors is not formatted.
public enum Formatter {
  /// The widest a line is made, when its content can be broken.
  public static let lineWidth = Printer.lineWidth

  /// What formatting a file gave.
  public enum Result: Sendable {
    /// The formatted text.
    case formatted([UInt8])
    /// The file has syntax errors; it cannot be formatted.
    case syntaxErrors(DiagnosticBag)
  }

  /// Formats a whole file (on a large stack: parsing and printing recurse over nesting).
  /// The printer's tokens (`LexedToken`) are lexed on a thread of their own while the parser
  /// builds the tree, which needs none of them.
  public static func format(_ file: SourceFile) -> Result {
    LargeStack.run {
      file.bytes.withUnsafeBufferPointer { bytes -> Result in
        let (parsed, lexed) = LargeStack.concurrently(
          { Parser.parse(file, recordingParentheses: true) }, { LexedToken.lex(bytes) }, size: lexerStack)
        guard !parsed.diagnostics.hasErrors else { return .syntaxErrors(parsed.diagnostics) }
        let out = LineWriter(capacity: bytes.count + bytes.count / 8)
        return lexed.withUnsafeBufferPointer { tokens in
          let printer = Printer(tree: parsed.tree, source: SourceCursor(bytes: bytes, tokens: tokens), out: out)
          printer.program()
          return .formatted(printer.out.alignedText(width: Printer.lineWidth))
        }
      }
    }
  }

  /// Lexing does not recurse.
  private static let lexerStack = 1 << 20
}
