import KaleidoscopeBackend
import KaleidoscopeFrontend
import Testing

/// A program and the FileCheck directives its unoptimised IR must match: a case of the
/// table-driven suites that read IR.
struct IRCase: Sendable, CustomTestStringConvertible {
  let testDescription: String
  let source: String
  let checks: String

  /// The unoptimised IR of `source`'s module, as `run` (`.reachable`) or `ir` (`.all`)
  /// makes it; with `debugInfo`, as `build -g` does.
  static func unoptimizedIR(_ source: String, selection: Pipeline.Selection, debugInfo: Bool = false) throws -> String {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: source))
    try #require(!result.diagnostics.hasErrors)
    return try LargeStack.run { () throws -> String in
      try Pipeline.module(
        for: result.program, in: Context(), for: TargetMachine(optimization: .none),
        options: CompileOptions(optimization: .none, debugInfo: debugInfo), selection: selection
      ).text
    }
  }
}
