/// Semantic analysis: resolves every name in a file and checks the static rules of the
/// language (SPEC §3).
///
/// The parser hands over items as it parses them (`Frontend.check`). Each item is declared,
/// then its body is checked with a scope table; what cannot be resolved yet (a call to a
/// function defined further on, a unary operator defined later) is put off, and `finish`
/// resolves it against the whole file, or reports it. When `records` is set, what code
/// generation needs is recorded on the way: what every name refers to, each `var` binding's
/// local, and each body's callees.
///
/// Every name is a number or an array, known from its declaration (SPEC §5); each
/// expression is checked in a context that expects one or the other, so a misuse is reported
/// where it is written.
///
/// The checker is split by job: item handling here, declarations in
/// `Checker+Declarations.swift`, expressions and scopes in `Checker+Expressions.swift`, name
/// resolution and what is put off in `Checker+Resolution.swift`.
struct Checker {
  /// The tree being checked. Lent by the parser for each `checkItems` call (`swap`, so that
  /// neither copy is shared and the parser's next append does not copy the arrays).
  var tree: SyntaxTree
  let mode: Frontend.Mode
  /// Whether what code generation needs is recorded (`Frontend.Retention.program`).
  let records: Bool
  var functions: FunctionTable
  var globals: GlobalTable
  var diagnostics = DiagnosticBag()
  var bodies: [CheckedBody] = []
  /// Per expression node: see `CheckedProgram.resolutions`.
  var resolutions: [Int32] = []
  /// The local each `var` binding declares, by its index in the tree's binding table.
  var bindingLocals: [LocalID] = []

  /// Whether each function (by `FunctionID.index`) is defined, not just declared, in this
  /// file, so a second `def` is caught.
  var definedHere: [Bool]
  /// Whether each global (by `GlobalID.index`) is declared in this file.
  var globalDeclaredHere: [Bool]
  /// The binary operators this file defines, by character, for the "defined later" note.
  var binaryDefinitionRanges: [UInt8: SourceRange] = [:]
  /// The `unary`/`binary` function of each operator character, -1 if none; kept up to date
  /// as operators are declared.
  var unaryFunctions = [Int32](repeating: -1, count: 128)
  var binaryFunctions = [Int32](repeating: -1, count: 128)
  /// Uses of functions and operators put off until the whole file is declared.
  var deferred: [DeferredUse] = []
  /// How many top-level expressions and declarations of globals have been checked.
  var topLevelCount = 0
  var globalDeclarationCount = 0

  // Per-body state.
  /// The index the body being checked will have in `bodies`; nil when it is not kept.
  var currentBody: Int?
  /// The local each name currently refers to, indexed by `Name.index`; -1 when none.
  var scope: [Int32] = []
  /// What to restore when a scope ends: (name index, previous local).
  var scopeLog: [(Int32, Int32)] = []
  var locals: [Local] = []
  var callees: [FunctionID] = []
  /// The body's loops, outermost first.
  var loops: [ExprID] = []
  /// For each function, the index of the last body that recorded it as a callee.
  var calleeStamp: [Int] = []
  /// Scratch stack for walking chains of binary operators.
  var spine: [ExprID] = []

  init(file: SourceFile, functions: FunctionTable, globals: GlobalTable, mode: Frontend.Mode, records: Bool) {
    self.tree = SyntaxTree(file: file)
    self.functions = functions
    self.globals = globals
    self.definedHere = [Bool](repeating: false, count: functions.symbols.count)
    self.globalDeclaredHere = [Bool](repeating: false, count: globals.symbols.count)
    self.mode = mode
    self.records = records
    // Operators declared before this file (a REPL session's): the newest of each, as by name.
    for (index, symbol) in functions.symbols.enumerated() { noteOperator(symbol.prototype.kind, Int32(index)) }
  }

  /// Declares and checks `items` of `tree`, the items the parser has just added.
  mutating func checkItems(_ items: Range<Int>, of tree: inout SyntaxTree) {
    swap(&self.tree, &tree)
    defer { swap(&self.tree, &tree) }
    growTables()
    for index in items {
      switch self.tree.items[index] {
      case .definition(let definition):
        let accepted = declare(definition.prototype, defining: true)
        let id = functions.lookup(definition.prototype.name)!
        // A rejected definition (a duplicate, a clash) is still checked, but never compiled.
        checkBody(
          definition.body, parameters: definition.prototype.parameters, kind: .function(id),
          range: definition.range, keep: accepted)
      case .brokenDefinition(let prototype):
        declare(prototype, defining: true)
      case .external(let prototype):
        declare(prototype, defining: false)
      case .expression(let root):
        checkBody(root, parameters: [], kind: .topLevel(index: topLevelCount), range: self.tree.range(of: root), keep: true)
        topLevelCount += 1
      case .globals(let root):
        guard case .globalDeclaration(let index) = self.tree[root] else { continue }
        for binding in self.tree.bindings(self.tree.globalDeclaration(index)) { declareGlobal(binding) }
        checkBody(
          root, parameters: [], kind: .globalDeclaration(index: globalDeclarationCount), range: self.tree.range(of: root),
          keep: true)
        globalDeclarationCount += 1
      }
    }
  }

  /// Makes the per-name and per-node tables as large as the tree has grown.
  private mutating func growTables() {
    if scope.count < tree.names.count {
      scope.append(contentsOf: repeatElement(-1, count: tree.names.count - scope.count))
    }
    guard records else { return }
    resolutions.append(contentsOf: repeatElement(-1, count: tree.exprCount - resolutions.count))
    bindingLocals.append(contentsOf: repeatElement(LocalID(index: -1), count: tree.bindingCount - bindingLocals.count))
  }

  /// Resolves what was put off, now that the whole file is declared, reports what still does
  /// not resolve, and returns the program. `tree` is the file's tree as the parser left it.
  mutating func finish(tree: SyntaxTree) -> CheckedProgram {
    self.tree = tree
    for use in deferred { resolveAtEnd(use) }
    deferred = []
    return CheckedProgram(
      tree: tree, functions: functions, globals: globals, bodies: bodies, resolutions: resolutions,
      bindingLocals: bindingLocals)
  }

  // MARK: - Bodies

  /// Checks a definition's body or a top-level expression; `keep` adds it to the program.
  private mutating func checkBody(
    _ root: ExprID, parameters: [Parameter], kind: CheckedBody.Kind, range: SourceRange, keep: Bool
  ) {
    // Kept bodies take these arrays over; otherwise their storage serves the next body.
    locals.removeAll(keepingCapacity: true)
    callees.removeAll(keepingCapacity: true)
    loops.removeAll(keepingCapacity: true)
    currentBody = keep && records ? bodies.count : nil
    let mark = scopeLog.count
    for parameter in parameters {
      bind(parameter.name, kind: .parameter, valueKind: parameter.kind, range: parameter.range)
    }
    check(root)
    unbind(to: mark)
    if let currentBody {
      assert(currentBody == bodies.count)
      bodies.append(CheckedBody(kind: kind, body: root, locals: locals, callees: callees, loops: loops, range: range))
    }
  }

  // MARK: - Reporting

  mutating func report(_ message: DiagnosticMessage, at range: SourceRange, notes: [Note] = []) {
    diagnostics.append(Diagnostic(.error, message, in: tree.file, at: range, notes: notes))
  }

  func note(_ message: DiagnosticMessage, at symbol: FunctionSymbol) -> Note {
    Note(message, in: symbol.file, at: symbol.prototype.nameRange)
  }

  func note(_ message: DiagnosticMessage, at symbol: GlobalSymbol) -> Note {
    Note(message, in: symbol.file, at: symbol.range)
  }
}
