/// The front end's one entry point: source in, checked program and diagnostics out. `check`,
/// `run`, `build`, `ir`, the REPL and the language server all come through here.
///
/// The parser hands each item to the checker as soon as it is parsed, so a file is read once,
/// front to back. A use of something declared further on (a call to a later function, a
/// unary operator defined later) is put off and resolved when the whole file has been read
/// (`Checker.finish`), so the result is what declaring everything first would give.
public enum Frontend {
  /// How redefinitions are treated.
  public enum Mode: Sendable {
    /// A source file: defining a name twice is an error.
    case file
    /// A REPL input: a new definition replaces the old one (with the same arity).
    case interactive
    /// A source file to run in a sandbox (`run --sandbox`, the playground): as `file`, and an
    /// `extern` may name only the runtime's functions and the C math library's.
    case sandboxed
  }

  /// What the caller needs of the program.
  public enum Retention: Sendable {
    /// The whole program: every body, with every name resolved, to run or compile.
    case program
    /// Only the diagnostics and declarations: each item's expressions are dropped once it
    /// is checked, so memory grows with the largest item rather than with the file.
    case diagnostics
  }

  /// Parses and checks `file` after `declarations` (what earlier REPL inputs declared).
  public static func check(
    _ file: SourceFile, after declarations: Declarations = Declarations(), mode: Mode = .file,
    keeping retention: Retention = .program
  ) -> FrontendResult {
    var checker = Checker(
      file: file, functions: declarations.functions, globals: declarations.globals, mode: mode,
      records: retention == .program)
    let parsed = Parser.parse(
      file, names: declarations.names, operators: declarations.operators, keepingItems: retention == .program
    ) { tree, items in
      checker.checkItems(items, of: &tree)
    }
    let program = checker.finish(tree: parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: checker.diagnostics)
    return FrontendResult(
      program: program, diagnostics: diagnostics,
      declarations: Declarations(
        names: parsed.tree.names, operators: parsed.operators, functions: program.functions, globals: program.globals),
      isIncomplete: parsed.isIncomplete)
  }
}

/// What a program declares that later input may use: the interned names, the binary
/// operators with their precedences, the functions and the globals. A REPL session carries
/// it from one input to the next.
public struct Declarations: Sendable {
  public var names: NameTable
  public var operators: OperatorTable
  public var functions: FunctionTable
  public var globals: GlobalTable

  public init(
    names: NameTable = NameTable(), operators: OperatorTable = .standard, functions: FunctionTable = FunctionTable(),
    globals: GlobalTable = GlobalTable()
  ) {
    self.names = names
    self.operators = operators
    self.functions = functions
    self.globals = globals
  }
}

/// What the front end produced for one file.
///
/// The program is complete even when there are errors (unresolved names resolve to nothing),
/// so tools can still show it; compiling it is only allowed when `diagnostics` has no errors.
public struct FrontendResult: Sendable {
  /// The checked program; with `Retention.diagnostics`, its declarations but no bodies.
  public var program: CheckedProgram
  /// Syntax errors first, then semantic ones, each group in the order found.
  public var diagnostics: DiagnosticBag
  /// Everything declared so far, this file included: the next REPL input's starting point.
  public var declarations: Declarations
  /// True when the input stopped in the middle of an item, for the REPL to read on.
  public var isIncomplete: Bool
}
