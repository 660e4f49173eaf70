/// The whole front end in one call: parse, then check.
public enum Frontend {
  /// Parses and checks a source file. Sema runs even after syntax errors (a broken definition
  /// still declares its function), so one run reports every independent mistake.
  public static func analyze(_ file: SourceFile) -> SemaResult {
    let parsed = Parser.parse(file)
    var result = Sema.check(parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: result.diagnostics)
    result.diagnostics = diagnostics
    return result
  }
}
