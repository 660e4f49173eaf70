/// What semantic analysis produced: the checked program and every error found.
///
/// The program is complete even when there are errors (unresolved names resolve to nothing),
/// so tools can still show it; compiling it is only allowed when `diagnostics` has no errors.
public struct SemaResult: Sendable {
  public var program: CheckedProgram
  public var diagnostics: DiagnosticBag
}

/// Semantic analysis: resolves every name in a syntax tree and checks the static rules of
/// the language (SPEC §3).
///
/// It runs in two passes. The first declares every `def` and `extern` of the tree, so a
/// function may be called before its definition; the second walks each body with a scope
/// table and records what every variable, call and operator refers to.
public enum Sema {
  /// How a redefinition is treated.
  public enum Mode: Sendable {
    /// A source file: defining a name twice is an error.
    case file
    /// A REPL input: a new definition replaces the old one (with the same arity).
    case interactive
  }

  /// Checks `tree`. `functions` holds what earlier REPL inputs declared.
  public static func check(
    _ tree: SyntaxTree, functions: FunctionTable = FunctionTable(), mode: Mode = .file
  ) -> SemaResult {
    var checker = Checker(tree: tree, functions: functions, mode: mode)
    checker.declareItems()
    checker.checkBodies()
    let program = CheckedProgram(
      tree: tree, functions: checker.functions, bodies: checker.bodies,
      resolutions: checker.resolutions, bindingLocals: checker.bindingLocals)
    return SemaResult(program: program, diagnostics: checker.diagnostics)
  }
}

/// The state of one run of semantic analysis.
///
/// It works in one of two ways. Given a whole tree (`Sema.check`), it declares every item and
/// then checks every body, so every name can be resolved when it is met. Fed a file item by
/// item (`Frontend.diagnose`), it declares and checks each item as it comes, and what cannot
/// be resolved yet (a call to a function defined further on, an operator defined later) is
/// put off to `resolveDeferred()`, which resolves it against the whole file's declarations and
/// reports exactly what the first way reports.
struct Checker {
  private(set) var tree: SyntaxTree
  let mode: Sema.Mode
  /// Whether names that do not resolve yet are put off (item-by-item checking).
  let defers: Bool
  var functions: FunctionTable
  var diagnostics = DiagnosticBag()
  var bodies: [CheckedBody] = []
  var resolutions: [Int32]
  /// The local each `var` binding declares, by its index in the tree's binding table.
  var bindingLocals: [LocalID]
  /// Whether what code generation needs (`resolutions`, `bindingLocals`, each body's callees)
  /// is recorded. Not when checking item by item, which keeps nothing but diagnostics.
  private var records = true

  /// Whether each function (by `FunctionID.index`) is defined, not just declared, in this
  /// file, so a second `def` is caught.
  private var definedHere: [Bool] = []
  /// The binary operators this tree defines, by character, for the "defined later" note.
  private var binaryDefinitionRanges: [UInt8: SourceRange] = [:]

  // Per-body state.
  /// The local each name currently refers to, indexed by `Name.index`; -1 when none.
  private var scope: [Int32]
  /// What to restore when a scope ends: (name index, previous local).
  private var scopeLog: [(Int32, Int32)] = []
  private var locals: [Local] = []
  private var callees: [FunctionID] = []
  /// For each function, the index of the last body that recorded it as a callee.
  private var calleeStamp: [Int] = []
  /// Scratch stack for walking chains of binary operators.
  private var spine: [ExprID] = []
  /// The `unary`/`binary` function of each operator character, -1 if none; kept up to date
  /// as operators are declared.
  private var unaryFunctions = [Int32](repeating: -1, count: 128)
  private var binaryFunctions = [Int32](repeating: -1, count: 128)
  /// Uses of functions and operators put off until the whole file is declared.
  private var deferred: [DeferredUse] = []
  /// How many top-level expressions have been checked.
  private var topLevelCount = 0

  init(tree: SyntaxTree, functions: FunctionTable, mode: Sema.Mode, defers: Bool = false) {
    self.tree = tree
    self.functions = functions
    self.definedHere = [Bool](repeating: false, count: functions.symbols.count)
    self.mode = mode
    self.defers = defers
    self.resolutions = [Int32](repeating: -1, count: tree.exprCount)
    self.scope = [Int32](repeating: -1, count: tree.names.count)
    self.bindingLocals = [LocalID](repeating: LocalID(index: -1), count: tree.bindingCount)
    // Operators declared before this file (a REPL session's): the newest of each, as by name.
    for (index, symbol) in functions.symbols.enumerated() { noteOperator(symbol.prototype.kind, Int32(index)) }
  }

  /// Records that function `index` implements `kind`, if it is an operator.
  private mutating func noteOperator(_ kind: Prototype.Kind, _ index: Int32) {
    switch kind {
    case .unaryOperator(let op) where op < 128: unaryFunctions[Int(op)] = index
    case .binaryOperator(let op, _) where op < 128: binaryFunctions[Int(op)] = index
    default: break
    }
  }

  // MARK: - Declarations

  mutating func declareItems() {
    for item in tree.items { declare(item) }
  }

  /// Declares what an item declares: a definition (even a broken one) or an `extern`.
  private mutating func declare(_ item: Item) {
    switch item {
    case .definition(let definition): declare(definition.prototype, defining: true)
    case .brokenDefinition(let prototype): declare(prototype, defining: true)
    case .external(let prototype): declare(prototype, defining: false)
    case .expression: break
    }
  }

  private mutating func declare(_ prototype: Prototype, defining: Bool) {
    checkDuplicateParameters(prototype)
    if case .binaryOperator(let op, _) = prototype.kind, binaryDefinitionRanges[op] == nil {
      binaryDefinitionRanges[op] = prototype.nameRange
    }
    let symbol = FunctionSymbol(
      name: prototype.name, spelling: tree.text(prototype.name),
      origin: defining ? .defined : .external, prototype: prototype, file: tree.file)
    guard let id = functions.lookup(prototype.name) else {
      add(symbol, defining: defining)
      return
    }
    let existing = functions[id]
    if defining && definedHere[Int(id.index)] && mode == .file {
      report(
        .redefinition(symbol.spelling), at: prototype.nameRange,
        notes: [note(.previousDefinition(symbol.spelling), at: existing)])
      return
    }
    if existing.arity != prototype.arity {
      let kind: DiagnosticMessage =
        existing.origin == .defined ? .previousDefinition(symbol.spelling) : .previousDeclaration(symbol.spelling)
      report(
        .conflictingDeclaration(symbol.spelling, previous: existing.arity, current: prototype.arity),
        at: prototype.nameRange, notes: [note(kind, at: existing)])
      return
    }
    if defining {
      definedHere[Int(id.index)] = true
      functions.update(id) { $0 = symbol }
    }
  }

  /// Adds a function new to the table, and makes an operator function usable.
  private mutating func add(_ symbol: FunctionSymbol, defining: Bool) {
    let id = functions.add(symbol)
    definedHere.append(defining)
    assert(definedHere.count == functions.symbols.count)
    noteOperator(symbol.prototype.kind, id.index)
  }

  private mutating func checkDuplicateParameters(_ prototype: Prototype) {
    for (index, parameter) in prototype.parameters.enumerated() {
      if let first = prototype.parameters[..<index].first(where: { $0.name == parameter.name }) {
        let spelling = tree.text(parameter.name)
        report(
          .duplicateParameter(spelling), at: parameter.range,
          notes: [Note(.previousDeclaration(spelling), in: tree.file, at: first.range)])
      }
    }
  }

  // MARK: - Item by item

  /// Declares and checks the items of `tree`, the latest items of a file being parsed (see
  /// `Frontend.diagnose`). The tree is lent for the call and handed back unchanged.
  mutating func checkItems(of tree: inout SyntaxTree) {
    swap(&self.tree, &tree)
    defer { swap(&self.tree, &tree) }
    records = false
    if scope.count < self.tree.names.count {
      scope.append(contentsOf: repeatElement(-1, count: self.tree.names.count - scope.count))
    }
    for item in self.tree.items {
      declare(item)
      switch item {
      case .definition(let definition):
        let id = functions.lookup(definition.prototype.name)!
        checkBody(
          definition.body, parameters: definition.prototype.parameters, kind: .function(id),
          range: definition.range, keep: false)
      case .brokenDefinition, .external:
        break
      case .expression(let root):
        checkBody(
          root, parameters: [], kind: .topLevel(index: topLevelCount), range: self.tree.range(of: root), keep: false)
        topLevelCount += 1
      }
    }
  }

  /// Resolves what item-by-item checking put off, now that the whole file is declared, and
  /// reports what still does not resolve. `tree` is the file's tree at the end (its names).
  mutating func resolveDeferred(in tree: SyntaxTree) {
    self.tree = tree
    for use in deferred { reportUnresolved(use) }
    deferred = []
  }

  // MARK: - Parts checked apart

  /// Whether this part declares a function spelled as `name` of another part whose names are
  /// `names`; `ownNames` are this part's.
  func declares(_ name: Name, of names: NameTable, ownNames: NameTable) -> Bool {
    ownNames.lookup(name, of: names).flatMap(functions.lookup) != nil
  }

  /// Whether some function this checker declares is also declared by `other`, the checker of
  /// another part (see `adopt`).
  func sharesDeclarations(with other: Checker, names: NameTable, otherNames: NameTable) -> Bool {
    functions.symbols.contains { other.declares($0.name, of: names, ownNames: otherNames) }
  }

  /// Whether every use this checker put off resolves, here or in one of `others`, checkers
  /// of the other parts of the file, given as (checker, names) pairs; `names` are this
  /// part's. When they all do, the parts need not be joined: no diagnostic depends on them.
  func resolvesEveryUse(with others: [(checker: Checker, names: NameTable)], names: NameTable) -> Bool {
    deferred.allSatisfy { use in
      resolves(use)
        || others.contains { other in
          switch use {
          case .call(let callee, let argumentCount, let start):
            guard let name = other.names.lookup(callee, of: names) else { return false }
            return other.checker.resolves(.call(name, argumentCount: argumentCount, at: start))
          case .unary, .binary: return other.checker.resolves(use)
          }
        }
    }
  }

  /// Takes over what `other` found checking, item by item, the part of the file that follows
  /// this checker's part (see `Frontend.diagnose`): its declarations, its diagnostics and the
  /// uses it put off. `renaming` maps the other part's names to this one's (see
  /// `NameTable.intern(contentsOf:)`). Afterwards this checker stands where checking the two
  /// parts in one go would have left it.
  ///
  /// That holds only when the parts declare no name in common: a second declaration's
  /// diagnostics, and what calls between the two resolve to, depend on the first. Then
  /// nothing changes and the result is false; the parts must be checked in one go.
  mutating func adopt(_ other: consuming Checker, renaming: [Name]) -> Bool {
    func rename(_ name: Name) -> Name { renaming[Int(name.index)] }
    guard !other.functions.symbols.contains(where: { functions.lookup(rename($0.name)) != nil }) else { return false }
    functions.reserveCapacity(functions.symbols.count + other.functions.symbols.count)
    definedHere.reserveCapacity(functions.symbols.count + other.functions.symbols.count)
    for (index, symbol) in other.functions.symbols.enumerated() {
      var symbol = symbol
      symbol.name = rename(symbol.name)
      symbol.prototype.rename(rename)
      add(symbol, defining: other.definedHere[index])
    }
    binaryDefinitionRanges.merge(other.binaryDefinitionRanges) { first, _ in first }
    diagnostics.append(contentsOf: other.diagnostics)
    // What resolves now need not be kept: it will still resolve at the end.
    deferred += other.deferred.lazy.map { $0.renamed(rename) }.filter { !resolves($0) }
    topLevelCount += other.topLevelCount
    return true
  }

  // MARK: - Bodies

  mutating func checkBodies() {
    calleeStamp = [Int](repeating: -1, count: functions.symbols.count)
    var topLevelIndex = 0
    for item in tree.items {
      switch item {
      case .definition(let definition):
        let id = functions.lookup(definition.prototype.name)!
        // Only the definition the table kept is compiled; a rejected duplicate is still checked.
        checkBody(
          definition.body, parameters: definition.prototype.parameters,
          kind: .function(id), range: definition.range,
          keep: functions[id].prototype == definition.prototype && functions[id].file === tree.file)
      case .expression(let root):
        checkBody(root, parameters: [], kind: .topLevel(index: topLevelIndex), range: tree.range(of: root), keep: true)
        topLevelIndex += 1
      case .external, .brokenDefinition:
        break
      }
    }
  }

  private mutating func checkBody(
    _ root: ExprID, parameters: [Parameter], kind: CheckedBody.Kind, range: SourceRange, keep: Bool
  ) {
    // Kept bodies take these arrays over; otherwise their storage serves the next body.
    locals.removeAll(keepingCapacity: true)
    callees.removeAll(keepingCapacity: true)
    let mark = scopeLog.count
    for parameter in parameters {
      bind(parameter.name, kind: .parameter, range: parameter.range)
    }
    check(root)
    unbind(to: mark)
    if keep {
      bodies.append(CheckedBody(kind: kind, body: root, locals: locals, callees: callees, range: range))
    }
  }

  /// Checks an expression. Recursion depth is bounded by the parser's nesting limit, except
  /// along chains of binary operators, which are walked iteratively.
  private mutating func check(_ id: ExprID) {
    switch tree[id] {
    case .number, .error:
      break
    case .variable(let name):
      resolveVariable(name, at: id)
    case .unary(let op, let operand):
      check(operand)
      resolveUnary(op, at: id)
    case .binary:
      checkBinaryChain(id)
    case .assign(let target, let value):
      if case .variable(let name) = tree[target] {
        resolveVariable(name, at: target)
        if records { resolutions[Int(id.index)] = resolutions[Int(target.index)] }
      } else {
        report(.assignmentToNonVariable, at: tree.range(of: id))
        check(target)
      }
      check(value)
    case .call(let callee, let arguments):
      for argument in tree.arguments(arguments) { check(argument) }
      resolveCall(callee, argumentCount: Int(arguments.count), at: id)
    case .ifElse(let condition, let then, let otherwise):
      check(condition)
      check(then)
      check(otherwise)
    case .forLoop(let index):
      let loop = tree.forLoop(index)
      check(loop.start)
      let mark = scopeLog.count
      bind(loop.variable, kind: .loopVariable, range: loop.variableRange)
      if records { resolutions[Int(id.index)] = Int32(locals.count - 1) }
      check(loop.end)
      if let step = loop.step { check(step) }
      check(loop.body)
      unbind(to: mark)
    case .varIn(let index):
      let varIn = tree.varIn(index)
      let mark = scopeLog.count
      for (bindingIndex, binding) in zip(varIn.bindingIndices, tree.bindings(of: varIn)) {
        if let initializer = binding.initializer { check(initializer) }
        bind(binding.name, kind: .variable, range: binding.nameRange)
        if records { bindingLocals[bindingIndex] = LocalID(index: Int32(locals.count - 1)) }
      }
      check(varIn.body)
      unbind(to: mark)
    }
  }

  /// Checks `lhs op rhs`. A chain whose left operand is itself binary (`1 + 2 + ... + n`) is
  /// walked down its left spine iteratively, with `spine` as a shared stack.
  private mutating func checkBinaryChain(_ id: ExprID) {
    guard case .binary(let op, let lhs, let rhs) = tree[id] else { return }
    guard case .binary = tree[lhs] else {
      check(lhs)
      check(rhs)
      resolveBinary(op, at: id)
      return
    }
    let base = spine.count
    var current = id
    while case .binary(_, let left, _) = tree[current] {
      spine.append(current)
      current = left
    }
    check(current)
    while spine.count > base {
      let node = spine.removeLast()
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      check(rhs)
      resolveBinary(op, at: node)
    }
  }

  // MARK: - Resolution

  private mutating func resolveVariable(_ name: Name, at id: ExprID) {
    let local = scope[Int(name.index)]
    if local >= 0 {
      if records { resolutions[Int(id.index)] = local }
      return
    }
    let spelling = tree.text(name)
    var notes: [Note] = []
    let candidates = scopeLog.compactMap { entry in
      scope[Int(entry.0)] >= 0 ? tree.text(Name(index: entry.0)) : nil
    }
    if let suggestion = closestMatch(to: spelling, among: candidates) {
      notes.append(Note(.didYouMean(suggestion)))
    }
    report(.unknownVariable(spelling), at: tree.range(of: id), notes: notes)
  }

  private mutating func resolveCall(_ callee: Name, argumentCount: Int, at id: ExprID) {
    if let function = functions.lookup(callee), functions.arity(of: function) == argumentCount {
      recordCall(function, at: id)
    } else {
      unresolved(.call(callee, argumentCount: argumentCount, at: tree.start(of: id)))
    }
  }

  /// A use that does not resolve yet: put off when checking item by item, else reported.
  private mutating func unresolved(_ use: DeferredUse) {
    if defers {
      deferred.append(use)
    } else {
      reportUnresolved(use)
    }
  }

  /// Reports a use, unless it now resolves.
  private mutating func reportUnresolved(_ use: DeferredUse) {
    guard !resolves(use) else { return }
    switch use {
    case .call(let callee, let argumentCount, let start):
      reportCall(callee, argumentCount: argumentCount, at: tree.range(ofTokenAt: start))
    case .unary(let op, let start): reportUnary(op, at: tree.range(ofTokenAt: start))
    case .binary(let op, let start): reportBinary(op, at: tree.range(ofTokenAt: start))
    }
  }

  /// Whether a use resolves now. Declarations are only ever added, so it then always will.
  fileprivate func resolves(_ use: DeferredUse) -> Bool {
    switch use {
    case .call(let callee, let argumentCount, _):
      functions.lookup(callee).map { functions.arity(of: $0) == argumentCount } ?? false
    case .unary(let op, _): operatorFunction(prefix: "unary", op) != nil
    case .binary(let op, _): operatorFunction(prefix: "binary", op) != nil
    }
  }

  /// Reports a call that does not resolve to a function of its arity.
  private mutating func reportCall(_ callee: Name, argumentCount: Int, at range: SourceRange) {
    guard let function = functions.lookup(callee) else {
      let spelling = tree.text(callee)
      report(.unknownFunction(spelling), at: range, notes: unknownFunctionNotes(spelling))
      return
    }
    if functions.arity(of: function) != argumentCount {
      let spelling = tree.text(callee)
      let symbol = functions[function]
      report(
        .argumentCountMismatch(function: spelling, expected: symbol.arity, given: argumentCount),
        at: range, notes: [note(.declaredHere(spelling), at: symbol)])
    }
  }

  private mutating func resolveUnary(_ op: UInt8, at id: ExprID) {
    if let function = operatorFunction(prefix: "unary", op) {
      recordCall(function, at: id)
    } else if !OperatorTable.isBuiltinUnary(op) {
      unresolved(.unary(op, at: tree.start(of: id)))
    }
  }

  /// Reports a use of an undeclared prefix operator.
  private mutating func reportUnary(_ op: UInt8, at range: SourceRange) {
    let spelling = String(UnicodeScalar(op))
    var notes: [Note] = []
    if let range = binaryDefinitionRanges[op] {
      notes.append(Note(.operatorDefinedLater(kind: .binary, op: spelling), in: tree.file, at: range))
    } else if operatorFunction(prefix: "binary", op) != nil || OperatorTable.isBuiltinBinary(op) {
      notes.append(Note(.isBinaryOperatorNotUnary(spelling)))
    }
    report(.unknownUnaryOperator(spelling), at: range, notes: notes)
  }

  private mutating func resolveBinary(_ op: UInt8, at id: ExprID) {
    if OperatorTable.isBuiltinBinary(op) { return }
    if let function = operatorFunction(prefix: "binary", op) {
      recordCall(function, at: id)
    } else {
      unresolved(.binary(op, at: tree.start(of: id)))
    }
  }

  /// Reports a use of an undeclared infix operator.
  private mutating func reportBinary(_ op: UInt8, at range: SourceRange) {
    report(.unknownBinaryOperator(String(UnicodeScalar(op))), at: range)
  }

  /// The function `unary!` or `binary|` for an operator character, if declared. (Inlined:
  /// called from mutating methods, a call copied the whole checker to pass it.)
  @inline(__always)
  private func operatorFunction(prefix: StaticString, _ op: UInt8) -> FunctionID? {
    guard op < 128 else { return nil }
    let index = prefix.utf8Start[0] == UInt8(ascii: "u") ? unaryFunctions[Int(op)] : binaryFunctions[Int(op)]
    return index < 0 ? nil : FunctionID(index: index)
  }

  private mutating func recordCall(_ function: FunctionID, at id: ExprID) {
    guard records else { return }
    resolutions[Int(id.index)] = function.index
    let stampIndex = Int(function.index)
    if stampIndex >= calleeStamp.count {
      calleeStamp.append(contentsOf: repeatElement(-1, count: stampIndex + 1 - calleeStamp.count))
    }
    if calleeStamp[stampIndex] != bodies.count {
      calleeStamp[stampIndex] = bodies.count
      callees.append(function)
    }
  }

  // MARK: - Scopes

  private mutating func bind(_ name: Name, kind: Local.Kind, range: SourceRange) {
    let local = Int32(locals.count)
    locals.append(Local(name: name, kind: kind, range: range))
    scopeLog.append((name.index, scope[Int(name.index)]))
    scope[Int(name.index)] = local
  }

  private mutating func unbind(to mark: Int) {
    while scopeLog.count > mark {
      let (name, previous) = scopeLog.removeLast()
      scope[Int(name)] = previous
    }
  }

  // MARK: - Reporting

  private mutating func report(_ message: DiagnosticMessage, at range: SourceRange, notes: [Note] = []) {
    diagnostics.append(Diagnostic(.error, message, in: tree.file, at: range, notes: notes))
  }

  private func note(_ message: DiagnosticMessage, at symbol: FunctionSymbol) -> Note {
    Note(message, in: symbol.file, at: symbol.prototype.nameRange)
  }

  private func unknownFunctionNotes(_ spelling: String) -> [Note] {
    if let signature = HostLibrary.signature(of: spelling) {
      return [Note(.declareLibraryFunction(spelling, signature: signature))]
    }
    let names = functions.symbols.map(\.spelling).filter { !$0.hasPrefix("unary") && !$0.hasPrefix("binary") }
    if let suggestion = closestMatch(to: spelling, among: names + HostLibrary.functions.map(\.name)) {
      return [Note(.didYouMean(suggestion))]
    }
    return []
  }
}

/// A use of a function or operator that could not be resolved when it was checked item by
/// item, with the offset of its node's token.
enum DeferredUse {
  case call(Name, argumentCount: Int, at: Int)
  case unary(UInt8, at: Int)
  case binary(UInt8, at: Int)
}

extension DeferredUse {
  /// The same use, with its name (if any) mapped by `rename`.
  fileprivate func renamed(_ rename: (Name) -> Name) -> DeferredUse {
    guard case .call(let callee, let argumentCount, let start) = self else { return self }
    return .call(rename(callee), argumentCount: argumentCount, at: start)
  }
}

extension Prototype {
  /// Maps the function's and the parameters' names by `rename`.
  fileprivate mutating func rename(_ rename: (Name) -> Name) {
    name = rename(name)
    for index in parameters.indices { parameters[index].name = rename(parameters[index].name) }
  }
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
/// (at most a third of the word's length, and at least one edit).
func closestMatch(to word: String, among candidates: [String]) -> String? {
  let limit = max(1, word.utf8.count / 3)
  var best: (String, Int)?
  for candidate in candidates where candidate != word {
    let distance = editDistance(Array(word.utf8), Array(candidate.utf8))
    if distance <= limit, distance < (best?.1 ?? .max) {
      best = (candidate, distance)
    }
  }
  return best?.0
}

/// Levenshtein distance between two byte strings.
func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
