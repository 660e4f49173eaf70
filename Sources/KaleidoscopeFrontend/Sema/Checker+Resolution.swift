/// Name resolution: what each variable, call and operator refers to, what is put off until
/// the whole file is declared, and how what never resolves is reported.
extension Checker {
  mutating func resolveVariable(_ name: Name, at id: ExprID) {
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

  mutating func resolveCall(_ callee: Name, argumentCount: Int, at id: ExprID) {
    if let function = functions.lookup(callee), functions.arity(of: function) == argumentCount {
      recordCall(function, at: id)
    } else {
      putOff(.call(callee, argumentCount: argumentCount), at: id)
    }
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
  private mutating func recordCall(_ function: FunctionID, at id: ExprID) {
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
  private mutating func putOff(_ kind: DeferredUse.Kind, at id: ExprID) {
    deferred.append(DeferredUse(kind: kind, node: id, start: tree.start(of: id), body: currentBody))
  }

  /// At the end of the file: records a use put off if it now resolves, else reports it.
  mutating func resolveAtEnd(_ use: DeferredUse) {
    guard let function = resolution(of: use.kind) else {
      reportUnresolved(use.kind, at: tree.range(ofTokenAt: use.start))
      return
    }
    guard records else { return }
    resolutions[Int(use.node.index)] = function.index
    if let body = use.body, !bodies[body].callees.contains(function) {
      bodies[body].callees.append(function)
    }
  }

  /// The function a use resolves to now, if any.
  private func resolution(of kind: DeferredUse.Kind) -> FunctionID? {
    switch kind {
    case .call(let callee, let argumentCount):
      functions.lookup(callee).flatMap { functions.arity(of: $0) == argumentCount ? $0 : nil }
    case .unary(let op): operatorFunction(prefix: "unary", op)
    case .binary(let op): operatorFunction(prefix: "binary", op)
    }
  }

  private mutating func reportUnresolved(_ kind: DeferredUse.Kind, at range: SourceRange) {
    switch kind {
    case .call(let callee, let argumentCount): reportCall(callee, argumentCount: argumentCount, at: range)
    case .unary(let op): reportUnary(op, at: range)
    case .binary(let op): report(.unknownBinaryOperator(String(UnicodeScalar(op))), at: range)
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

/// A use of a function or operator that did not resolve when its body was checked.
struct DeferredUse {
  /// What is used.
  enum Kind {
    case call(Name, argumentCount: Int)
    case unary(UInt8)
    case binary(UInt8)
  }

  var kind: Kind
  /// The node that uses it, whose resolution is recorded if it resolves.
  var node: ExprID
  /// Where the node's token starts, for the diagnostic (the node itself may be dropped).
  var start: Int
  /// The body the use is in, by its index in `bodies`, when that body is kept.
  var body: Int?
}
