/// Declarations: `def` and `extern` prototypes enter the function table, top-level `var`s the
/// global table, with the rules for redefinitions, conflicting signatures, duplicate
/// parameters, and names shared between functions and globals.
extension Checker {
  /// Declares a prototype; returns whether the function table now holds it (false for a
  /// rejected duplicate or a clash, which is reported).
  @discardableResult
  mutating func declare(_ prototype: Prototype, defining: Bool) -> Bool {
    checkDuplicateParameters(prototype)
    if !defining, let array = prototype.parameters.first(where: { $0.kind == .array }) {
      report(.externTakesNumbers(tree.text(array.name)), at: array.range)
    }
    if !defining && mode == .sandboxed && !HostLibrary.isSandboxed(tree.text(prototype.name)) {
      report(.externOutsideSandbox(tree.text(prototype.name)), at: prototype.nameRange)
    }
    if case .binaryOperator(let op, _) = prototype.kind, binaryDefinitionRanges[op] == nil {
      binaryDefinitionRanges[op] = prototype.nameRange
    }
    let symbol = FunctionSymbol(
      name: prototype.name, spelling: tree.text(prototype.name),
      origin: defining ? .defined : .external, prototype: prototype, file: tree.file)
    if let global = globals.lookup(prototype.name) {
      report(
        .nameIsGlobal(symbol.spelling), at: prototype.nameRange,
        notes: [note(.declaredHere(symbol.spelling), at: globals[global])])
    }
    guard let id = functions.lookup(prototype.name) else {
      add(symbol, defining: defining)
      return true
    }
    let existing = functions[id]
    if defining && definedHere[Int(id.index)] && mode != .interactive {
      report(
        .redefinition(symbol.spelling), at: prototype.nameRange,
        notes: [note(.previousDefinition(symbol.spelling), at: existing)])
      return false
    }
    let previous: DiagnosticMessage =
      existing.origin == .defined ? .previousDefinition(symbol.spelling) : .previousDeclaration(symbol.spelling)
    if existing.arity != prototype.arity {
      report(
        .conflictingDeclaration(symbol.spelling, previous: existing.arity, current: prototype.arity),
        at: prototype.nameRange, notes: [note(previous, at: existing)])
      return false
    }
    if let changed = zip(prototype.parameters, existing.prototype.parameters).first(where: { $0.kind != $1.kind }) {
      report(
        .conflictingParameterKind(symbol.spelling, parameter: tree.text(changed.0.name), isArray: changed.0.kind == .array),
        at: changed.0.range, notes: [note(previous, at: existing)])
      return false
    }
    if defining {
      definedHere[Int(id.index)] = true
      functions.update(id) { $0 = symbol }
    }
    return true
  }

  /// Declares the global a top-level `var` binding names. In a file each global is declared
  /// once; a REPL input may declare one again with the same kind, to give it a new value.
  mutating func declareGlobal(_ binding: VarBinding) {
    let spelling = tree.text(binding.name)
    if let function = functions.lookup(binding.name) {
      report(
        .nameIsFunction(spelling), at: binding.nameRange, notes: [note(.declaredHere(spelling), at: functions[function])])
    }
    guard let id = globals.lookup(binding.name) else {
      _ = globals.add(
        GlobalSymbol(name: binding.name, spelling: spelling, kind: binding.kind, range: binding.nameRange, file: tree.file))
      globalDeclaredHere.append(true)
      return
    }
    let existing = globals[id]
    if globalDeclaredHere[Int(id.index)] && mode != .interactive {
      report(.redefinition(spelling), at: binding.nameRange, notes: [note(.previousDefinition(spelling), at: existing)])
    } else if existing.kind != binding.kind {
      report(
        .globalKindChanged(spelling, wasArray: existing.kind == .array), at: binding.nameRange,
        notes: [note(.previousDeclaration(spelling), at: existing)])
    } else {
      globalDeclaredHere[Int(id.index)] = true
      globals.redeclare(id, at: binding.nameRange, in: tree.file)
    }
  }

  /// Adds a function new to the table, and makes an operator function usable.
  private mutating func add(_ symbol: FunctionSymbol, defining: Bool) {
    let id = functions.add(symbol)
    definedHere.append(defining)
    assert(definedHere.count == functions.symbols.count)
    noteOperator(symbol.prototype.kind, id.index)
  }

  /// Records that function `index` implements `kind`, if it is an operator.
  mutating func noteOperator(_ kind: Prototype.Kind, _ index: Int32) {
    switch kind {
    case .unaryOperator(let op) where op < 128: unaryFunctions[Int(op)] = index
    case .binaryOperator(let op, _) where op < 128: binaryFunctions[Int(op)] = index
    case .function, .unaryOperator, .binaryOperator: break
    }
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
}
