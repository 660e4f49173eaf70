/// Declarations: `def` and `extern` prototypes enter the function table, with the rules for
/// redefinitions, conflicting arities and duplicate parameters.
extension Checker {
  /// Declares a prototype; returns whether the function table now holds it (false for a
  /// rejected duplicate or a clash, which is reported).
  @discardableResult
  mutating func declare(_ prototype: Prototype, defining: Bool) -> Bool {
    checkDuplicateParameters(prototype)
    if case .binaryOperator(let op, _) = prototype.kind, binaryDefinitionRanges[op] == nil {
      binaryDefinitionRanges[op] = prototype.nameRange
    }
    let symbol = FunctionSymbol(
      name: prototype.name, spelling: tree.text(prototype.name),
      origin: defining ? .defined : .external, prototype: prototype, file: tree.file)
    guard let id = functions.lookup(prototype.name) else {
      add(symbol, defining: defining)
      return true
    }
    let existing = functions[id]
    if defining && definedHere[Int(id.index)] && mode == .file {
      report(
        .redefinition(symbol.spelling), at: prototype.nameRange,
        notes: [note(.previousDefinition(symbol.spelling), at: existing)])
      return false
    }
    if existing.arity != prototype.arity {
      let kind: DiagnosticMessage =
        existing.origin == .defined ? .previousDefinition(symbol.spelling) : .previousDeclaration(symbol.spelling)
      report(
        .conflictingDeclaration(symbol.spelling, previous: existing.arity, current: prototype.arity),
        at: prototype.nameRange, notes: [note(kind, at: existing)])
      return false
    }
    if defining {
      definedHere[Int(id.index)] = true
      functions.update(id) { $0 = symbol }
    }
    return true
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
