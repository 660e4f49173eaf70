/// Name resolution: what each variable, call and operator refers to, what is put off until
/// the whole file is declared, and how what never resolves, or resolves to the wrong kind of
/// name, is reported.
extension Checker {
  /// What a variable's name refers to here, if anything yet: a local in scope, else a global.
  /// (Inlined, as `kind(of:)`: called from mutating methods, an outlined call of a
  /// non-mutating method copies the whole checker to pass it.)
  @inline(__always)
  func lookUpVariable(_ name: Name) -> VariableReference? {
    let local = scope[Int(name.index)]
    if local >= 0 { return .local(LocalID(index: local)) }
    return globals.lookup(name).map(VariableReference.global)
  }

  @inline(__always)
  func kind(of reference: VariableReference) -> NameKind {
    switch reference {
    case .local(let local): locals[Int(local.index)].valueKind
    case .global(let global): globals[global].kind
    }
  }

  /// Resolves the name used by the node at `id`, which expects it to name a number or an
  /// array; `assigning` when the node assigns it, `argumentOf` when it is passed for a
  /// parameter, for the wording of a mismatch.
  mutating func resolveVariable(
    _ name: Name, at id: ExprID, expecting expected: NameKind, assigning: Bool = false,
    argumentOf argument: (FunctionID, Int)? = nil
  ) {
    // The common case first, reading the tables directly: a local of the expected kind.
    let local = scope[Int(name.index)]
    if local >= 0 {
      if records { resolutions[Int(id.index)] = local }
      let actual = locals[Int(local)].valueKind
      if actual != expected { reportMismatch(name, actual, expected, assigning, argument, at: id) }
      return
    }
    guard let global = globals.lookup(name) else {
      var use = VariableUse(
        name: name, expected: expected, assigning: assigning, argument: argument,
        localSuggestion: localSuggestion(for: tree.text(name)))
      if case .length = tree[id] { use.inLength = true }
      putOff(.variable(use), at: id)
      return
    }
    if records { resolutions[Int(id.index)] = CheckedProgram.encode(.global(global)) }
    let actual = globals[global].kind
    if actual != expected { reportMismatch(name, actual, expected, assigning, argument, at: id) }
  }

  private mutating func reportMismatch(
    _ name: Name, _ actual: NameKind, _ expected: NameKind, _ assigning: Bool, _ argument: (FunctionID, Int)?,
    at id: ExprID
  ) {
    let use = VariableUse(name: name, expected: expected, assigning: assigning, argument: argument)
    reportKind(of: name, actual: actual, use: use, at: tree.range(of: id))
  }

  /// The closest name in scope, for "did you mean".
  private func localSuggestion(for spelling: String) -> String? {
    let candidates = scopeLog.compactMap { entry in
      scope[Int(entry.0)] >= 0 ? tree.text(Name(index: entry.0)) : nil
    }
    return closestMatch(to: spelling, among: candidates)
  }

  /// Reports a name used as the other kind of name: an array as a number or the reverse.
  private mutating func reportKind(of name: Name, actual: NameKind, use: VariableUse, at range: SourceRange) {
    let spelling = tree.text(name)
    let message: DiagnosticMessage =
      switch (actual, use.assigning) {
      case (.array, true): .arrayAssignedAsWhole(spelling)
      case (.array, false): .arrayUsedAsNumber(spelling)
      case (.number, _): .numberUsedAsArray(spelling)
      }
    let notes = use.argument.map { [parameterNote($0.function, $0.parameter)] } ?? []
    report(message, at: range, notes: notes)
  }

  /// "'f' takes a number for 'x'", pointing at parameter `index` of `function`.
  func parameterNote(_ function: FunctionID, _ index: Int) -> Note {
    let symbol = functions[function]
    let parameter = symbol.prototype.parameters[index]
    return Note(
      .parameterKind(symbol.spelling, parameter: tree.text(parameter.name), isArray: parameter.kind == .array),
      in: symbol.file, at: parameter.range)
  }

  mutating func resolveUnary(_ op: UInt8, at id: ExprID) {
    if let function = operatorFunction(prefix: "unary", op) {
      recordCall(function, at: id)
    } else if !OperatorTable.isBuiltinUnary(op) {
      putOff(.unary(op), at: id)
    }
  }

  mutating func resolveBinary(_ op: UInt8, at id: ExprID) {
    if OperatorTable.isBuiltinBinary(op) { return }
    if let function = operatorFunction(prefix: "binary", op) {
      recordCall(function, at: id)
    } else {
      putOff(.binary(op), at: id)
    }
  }

  /// The function `unary!` or `binary|` for an operator character, if declared. (Inlined:
  /// called from mutating methods, an outlined call copies the whole checker to pass it.)
  @inline(__always)
  func operatorFunction(prefix: StaticString, _ op: UInt8) -> FunctionID? {
    guard op < 128 else { return nil }
    let index = prefix.utf8Start[0] == UInt8(ascii: "u") ? unaryFunctions[Int(op)] : binaryFunctions[Int(op)]
    return index < 0 ? nil : FunctionID(index: index)
  }

  /// Records that the node at `id`, in the body being checked, calls `function`.
  mutating func recordCall(_ function: FunctionID, at id: ExprID) {
    guard records else { return }
    resolutions[Int(id.index)] = function.index
    let stampIndex = Int(function.index)
    if stampIndex >= calleeStamp.count {
      calleeStamp.append(contentsOf: repeatElement(-1, count: stampIndex + 1 - calleeStamp.count))
    }
    if let currentBody, calleeStamp[stampIndex] != currentBody {
      calleeStamp[stampIndex] = currentBody
      callees.append(function)
    }
  }

  // MARK: - Uses put off

  /// A use that does not resolve yet: it may resolve once the rest of the file is declared.
  mutating func putOff(_ kind: DeferredUse.Kind, at id: ExprID) {
    deferred.append(DeferredUse(kind: kind, node: id, start: tree.start(of: id), body: currentBody))
  }

  /// At the end of the file: records a use put off if it now resolves, else reports it.
  mutating func resolveAtEnd(_ use: DeferredUse) {
    let range = tree.range(ofTokenAt: use.start)
    switch use.kind {
    case .variable(let variable):
      resolveVariableAtEnd(variable, node: use.node, at: range)
    case .call(let callee, let arguments):
      let function = functions.lookup(callee).flatMap { functions.arity(of: $0) == arguments.count ? $0 : nil }
      for (index, argument) in arguments.enumerated() {
        resolveArgumentAtEnd(argument, for: function.map { ($0, index) })
      }
      guard let function else { return reportCall(callee, argumentCount: arguments.count, at: range) }
      recordAtEnd(function, use)
    case .unary(let op):
      guard let function = operatorFunction(prefix: "unary", op) else { return reportUnary(op, at: range) }
      recordAtEnd(function, use)
    case .binary(let op):
      guard let function = operatorFunction(prefix: "binary", op) else {
        return report(.unknownBinaryOperator(String(UnicodeScalar(op))), at: range)
      }
      recordAtEnd(function, use)
    }
  }

  private mutating func recordAtEnd(_ function: FunctionID, _ use: DeferredUse) {
    guard records else { return }
    resolutions[Int(use.node.index)] = function.index
    if let body = use.body, !bodies[body].callees.contains(function) {
      bodies[body].callees.append(function)
    }
  }

  /// A name that named nothing when it was used: a global declared further on, or unknown.
  private mutating func resolveVariableAtEnd(_ use: VariableUse, node: ExprID, at range: SourceRange) {
    guard let global = globals.lookup(use.name) else {
      let spelling = tree.text(use.name)
      if let function = functions.lookup(use.name) {
        let message = DiagnosticMessage.functionUsedAsVariable(spelling, expected: use.expected, inLength: use.inLength)
        return report(message, at: range, notes: [note(.declaredHere(spelling), at: functions[function])])
      }
      let candidates = (use.localSuggestion.map { [$0] } ?? []) + globals.symbols.map(\.spelling)
      let notes = closestMatch(to: spelling, among: candidates).map { [Note(.didYouMean($0))] } ?? []
      return report(.unknownVariable(spelling), at: range, notes: notes)
    }
    if records { resolutions[Int(node.index)] = CheckedProgram.encode(.global(global)) }
    if globals[global].kind != use.expected {
      reportKind(of: use.name, actual: globals[global].kind, use: use, at: range)
    }
  }

  /// An argument of a call put off, now that the callee (if any) is known: `parameter` is
  /// the callee and the index of the parameter the argument is passed for.
  private mutating func resolveArgumentAtEnd(_ argument: ArgumentShape, for parameter: (FunctionID, Int)?) {
    let range = tree.range(ofTokenAt: argument.start)
    let expected: NameKind = parameter.map { functions.takesArray($0.0, parameter: $0.1) ? .array : .number } ?? .number
    if let name = argument.unresolvedName {
      let use = VariableUse(name: name, expected: expected, assigning: false, argument: parameter)
      return resolveVariableAtEnd(use, node: argument.node, at: range)
    }
    guard let (function, index) = parameter, argument.kind != expected else { return }
    switch argument.origin {
    case .variable(let name):
      let use = VariableUse(name: name, expected: expected, assigning: false, argument: (function, index))
      reportKind(of: name, actual: argument.kind, use: use, at: range)
    case .literal:
      report(.arrayLiteralAsNumber, at: range, notes: [parameterNote(function, index)])
    case .string:
      report(.stringAsNumber, at: range, notes: [parameterNote(function, index)])
    case .expression:
      let parameterName = tree.text(functions[function].prototype.parameters[index].name)
      report(
        .expectedArrayArgument(functions[function].spelling, parameter: parameterName), at: range,
        notes: [parameterNote(function, index)])
    }
  }

  /// Reports a call that does not resolve to a function of its arity.
  private mutating func reportCall(_ callee: Name, argumentCount: Int, at range: SourceRange) {
    let spelling = tree.text(callee)
    guard let function = functions.lookup(callee) else {
      report(.unknownFunction(spelling), at: range, notes: unknownFunctionNotes(spelling))
      return
    }
    let symbol = functions[function]
    report(
      .argumentCountMismatch(function: spelling, expected: symbol.arity, given: argumentCount),
      at: range, notes: [note(.declaredHere(spelling), at: symbol)])
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

  /// "Declare it first" for a library function, else "did you mean" for a close name.
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

/// A use of a function, operator or variable that did not resolve when its body was checked.
struct DeferredUse {
  /// What is used.
  enum Kind {
    case call(Name, arguments: [ArgumentShape])
    case unary(UInt8)
    case binary(UInt8)
    case variable(VariableUse)
  }

  var kind: Kind
  /// The node that uses it, whose resolution is recorded if it resolves.
  var node: ExprID
  /// Where the node's token starts, for the diagnostic (the node itself may be dropped).
  var start: Int
  /// The body the use is in, by its index in `bodies`, when that body is kept.
  var body: Int?
}

/// How a variable's name is used: as which kind, and where.
struct VariableUse {
  var name: Name
  var expected: NameKind
  /// Whether the use assigns the variable (`x = e`).
  var assigning: Bool
  /// The function and the index of the parameter it is passed for, if it is an argument.
  var argument: (function: FunctionID, parameter: Int)?
  /// The closest name in scope where it was used, for "did you mean".
  var localSuggestion: String?
  /// Whether the name is `len`'s operand, for the wording when it names a function.
  var inLength = false

  init(
    name: Name, expected: NameKind, assigning: Bool, argument: (FunctionID, Int)?, localSuggestion: String? = nil
  ) {
    self.name = name
    self.expected = expected
    self.assigning = assigning
    self.argument = argument.map { (function: $0.0, parameter: $0.1) }
    self.localSuggestion = localSuggestion
  }
}

/// An argument of a call whose callee was not declared yet: what kind of value it is (or the
/// name it uses, when that named nothing yet), for `resolveAtEnd` to hold against the callee.
struct ArgumentShape {
  /// What the argument is written as.
  enum Origin {
    case variable(Name)
    case literal
    case string
    case expression
  }

  var origin: Origin
  /// The kind of value; meaningless while `unresolvedName` is set.
  var kind: NameKind
  /// A name that named nothing yet.
  var unresolvedName: Name? = nil
  var node: ExprID
  var start: Int
}
