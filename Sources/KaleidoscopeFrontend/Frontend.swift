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

  /// Every diagnostic of a file, as `analyze` reports them, found item by item: each item is
  /// checked as soon as it is parsed and its expressions are then dropped, so memory grows
  /// with the largest item, not with the file. Uses of functions and operators declared
  /// further on are resolved at the end. This is what `kaleidoscope check` runs.
  public static func diagnose(_ file: SourceFile) -> DiagnosticBag {
    var checker = Checker(tree: SyntaxTree(file: file), functions: FunctionTable(), mode: .file, defers: true)
    let parsed = Parser.parseItemByItem(file) { tree in checker.checkItems(of: &tree) }
    checker.resolveDeferred(in: parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: checker.diagnostics)
    return diagnostics
  }
}
