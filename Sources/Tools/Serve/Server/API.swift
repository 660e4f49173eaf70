import KaleidoscopeSandbox

/// The playground's JSON API (SPEC §6): what the page sends and what it gets back.

/// `POST /api/run`.
struct RunRequest: Decodable {
  var source: String
  var stdin: String?
  /// 0 to 3; 2 when absent.
  var opt: Int?
  /// A `Tier`'s spelling: `jit` (the default) or `interp` (`interpreter` still works).
  var engine: String?
  /// `current` (the default) or `legacy`.
  var forSemantics: String?
}

/// The answer to `POST /api/run`.
struct RunResponse: Encodable {
  var exitCode: Int32
  var stdout: String
  var stderr: String
  var diagnostics: [DiagnosticEntry]
  var timedOut: Bool
  var truncated: Bool
  var timeMs: Double
}

/// `POST /api/view`.
struct ViewRequest: Decodable {
  var source: String
  /// A `View`'s name.
  var view: String
  var opt: Int?
  /// A `TargetName`'s short name or a triple of one, for `asm`.
  var target: String?
  /// For `ir`: a unified diff from the IR at -O0 to the IR at `opt`, every line kept.
  var diff: Bool?
  /// For `passes` and `cfg`: only this function.
  var function: String?
  /// For `cfg`: the machine code of `target`, not the IR.
  var asm: Bool?
  /// For `asm`: what to hide (everything it names, unless false).
  var filters: AssemblyFilters?
}

/// The fields of the `passes` view's answer (SPEC §7) that the server adds to the
/// `PassesViewOutput` the sandboxed view wrote (`PlaygroundAPI.splicing`).
struct ViewHead: Encodable {
  var diagnostics: [DiagnosticEntry]
  var lines: [Int]
}

/// The answer to the `cfg` view (SPEC §7).
struct CFGResponse: Encodable {
  var text: String
  var diagnostics: [DiagnosticEntry]
  var lines: [Int]
  var functions: [String]
  var svg: String
  /// The graphs were too large: `text` is the beginning of their DOT, and `svg` is empty.
  var truncated: Bool
}

/// The answer to `POST /api/view`.
struct ViewResponse: Encodable {
  var text: String
  var diagnostics: [DiagnosticEntry]
  /// For each line of `text`, the source line it came from, or 0 (the IR and assembly views;
  /// empty for the others). The page links source lines to these.
  var lines: [Int]
  /// The view was longer than the output limit: `text` is its beginning, whole lines.
  var truncated = false
}

/// `POST /api/share`.
struct ShareRequest: Decodable {
  var source: String
}

/// The answer to `POST /api/share`.
struct ShareResponse: Encodable {
  var id: String
  var url: String
}

/// The answer to `GET /api/share/ID`.
struct SnippetResponse: Encodable {
  var source: String
}

/// One example program, for the page's menu.
struct ExampleEntry: Encodable {
  var name: String
  var source: String
}

/// A diagnostic as the sandboxed side writes it (`DiagnosticJSON` in the front end).
struct DiagnosticEntry: Codable, Equatable {
  var line: Int
  var column: Int
  var endLine: Int
  var endColumn: Int
  var severity: String
  var message: String
}

/// The body of every 4xx and 5xx answer.
struct ErrorResponse: Encodable {
  var error: String
}
