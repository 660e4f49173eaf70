/// The host functions programs commonly declare with `extern`: the runtime's output functions
/// and the C math library. The REPL declares them up front (its prelude), and an
/// unknown-function error in a file suggests the `extern` to write.
public enum HostLibrary {
  /// Name and parameter names of each function, e.g. `("atan2", ["y", "x"])`.
  public static let functions: [(name: String, parameters: [String])] = [
    ("putchard", ["c"]), ("printd", ["x"]),
    ("sin", ["x"]), ("cos", ["x"]), ("tan", ["x"]), ("asin", ["x"]), ("acos", ["x"]),
    ("atan", ["x"]), ("atan2", ["y", "x"]), ("sinh", ["x"]), ("cosh", ["x"]), ("tanh", ["x"]),
    ("exp", ["x"]), ("log", ["x"]), ("log10", ["x"]), ("pow", ["x", "y"]), ("sqrt", ["x"]),
    ("fabs", ["x"]), ("floor", ["x"]), ("ceil", ["x"]), ("fmod", ["x", "y"]),
  ]

  /// `extern` declarations of every function, as Kaleidoscope source.
  public static var preludeSource: String {
    functions.map { "extern \($0.name)(\($0.parameters.joined(separator: " ")))\n" }.joined()
  }

  /// The functions a sandboxed program may declare: these, and the runtime's input.
  public static func isSandboxed(_ name: String) -> Bool {
    name == "getchard" || name == "readd" || functions.contains { $0.name == name }
  }

  /// Whether a call of the extern `name` may end in a runtime error: `readd`, or a function
  /// from outside this library, which may fault (`abort`, a pointer it was not given) or
  /// resolve to nothing. The caller sets the runtime's `ks_call_site` around such a call,
  /// so that the error names it (SPEC §5).
  public static func reportsAtCallSite(_ name: String) -> Bool {
    name == "readd" || !(name == "getchard" || functions.contains { $0.name == name })
  }

  /// The signature to suggest for `name`, e.g. `atan2(y x)`.
  public static func signature(of name: String) -> String? {
    functions.first { $0.name == name }.map { "\($0.name)(\($0.parameters.joined(separator: " ")))" }
  }
}
