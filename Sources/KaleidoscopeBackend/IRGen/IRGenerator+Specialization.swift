import CLLVM
import KaleidoscopeFrontend

/// What the IR generator knows of array indices (`WholeIndexAnalysis`), and the copies of
/// functions it makes for calls that pass known indices.
///
/// `siftDown(child, n)` after `a[child]` passed its check passes a whole number below 2^32;
/// a copy of `siftDown` compiled knowing that drops the fraction test from every check on
/// indices computed from it. The copies are private to their module and made only when
/// they prove more than the function itself does, so a program without arrays gets none.
/// The REPL calls each function through its slot, so there it makes none.
struct IndexKnowledge {
  /// A function and the parameters (bits) its copy knows to be indices.
  struct Copy: Hashable {
    var function: FunctionID
    var wholeParameters: UInt64
  }

  /// Whether any body can index an array: otherwise nothing is analysed.
  let hasArrays: Bool
  /// Nodes all the walks of one module may still visit: a few walks of each body, so that
  /// no program (however its loops nest, however many copies it asks for) makes the
  /// analysis cost more than a small multiple of reading it.
  var budget: Int
  /// Whether calls may reach specialised copies.
  let specializes: Bool
  /// Most copies one module makes, so that code growth stays bounded.
  static let copyLimit = 64

  /// The facts of the body being emitted.
  var current = IndexFacts()
  /// Facts by body and known parameters, each analysed once.
  var facts: [Copy: IndexFacts] = [:]
  /// Each copy asked for, or nil when it was not worth making.
  var copies: [Copy: LLVMValueRef?] = [:]
  /// Copies declared but not yet emitted.
  var pending: [(body: CheckedBody, wholeParameters: UInt64, function: LLVMValueRef)] = []
  /// The body defining each function, made on first need.
  var definitions: [FunctionID: CheckedBody]?
  /// Whether the module's program is the whole program, whose every assignment is known:
  /// not so in the REPL, where a later input may declare a global again.
  let knowsEveryAssignment: Bool
  /// What is known of the globals and which arrays keep integers
  /// (`WholeIndexAnalysis.globalFacts`), made on first need.
  var globalFacts: WholeIndexAnalysis.GlobalFacts?

  init(program: CheckedProgram, specializes: Bool, knowsEveryAssignment: Bool) {
    self.knowsEveryAssignment = knowsEveryAssignment
    hasArrays =
      program.globals.symbols.contains { $0.kind == .array }
      || program.bodies.contains { $0.locals.contains { $0.valueKind == .array } }
    self.specializes = hasArrays && specializes
    budget = WholeIndexAnalysis.budget + 8 * program.tree.exprCount
  }
}

extension IndexFacts {
  /// How much a body's facts prove: checks simplified, and arguments known.
  var strength: Int {
    wholeIndices.count + wholeArguments.values.reduce(0) { $0 + $1.nonzeroBitCount }
  }
}

extension IRGenerator {
  /// The facts of `body` emitted knowing `wholeParameters`, analysed on first need.
  func indexFacts(of body: CheckedBody, wholeParameters: UInt64 = 0) -> IndexFacts {
    // Without arrays, only number `var`s have anything to prove (`integralLocals`).
    guard indices.hasArrays || body.locals.contains(where: { $0.kind == .variable && $0.valueKind == .number }) else {
      return IndexFacts()
    }
    guard let function = body.function else { return analyze(body, wholeParameters: 0) }
    let key = IndexKnowledge.Copy(function: function, wholeParameters: wholeParameters)
    if let known = indices.facts[key] { return known }
    let analysed = analyze(body, wholeParameters: wholeParameters)
    indices.facts[key] = analysed
    return analysed
  }

  /// What is known of the globals (`WholeIndexAnalysis.globalFacts`), computed on first
  /// need; nothing in the REPL.
  func globalFacts() -> WholeIndexAnalysis.GlobalFacts {
    if let known = indices.globalFacts { return known }
    let made =
      indices.knowsEveryAssignment
      ? WholeIndexAnalysis.globalFacts(of: program, forSemantics: options.forSemantics) : .none
    indices.globalFacts = made
    return made
  }

  /// Walks `body`, within what is left of the module's budget.
  private func analyze(_ body: CheckedBody, wholeParameters: UInt64) -> IndexFacts {
    var visited = 0
    let facts = WholeIndexAnalysis.analyze(
      body, in: program, forSemantics: options.forSemantics, wholeParameters: wholeParameters, globals: globalFacts().stable,
      budget: indices.budget, visited: &visited)
    indices.budget -= visited
    return facts
  }

  /// The specialised copy a call at `node` to `callee` reaches, if one is worth making.
  func specializedCopy(of callee: FunctionID, at node: ExprID) -> LLVMValueRef? {
    guard indices.specializes, let whole = indices.current.wholeArguments[node] else { return nil }
    let key = IndexKnowledge.Copy(function: callee, wholeParameters: whole)
    if let known = indices.copies[key] { return known }
    var copy: LLVMValueRef?
    if indices.copies.count < IndexKnowledge.copyLimit, let body = definition(of: callee),
      indexFacts(of: body, wholeParameters: whole).strength > indexFacts(of: body).strength
    {
      let name = Self.definitionName(program.functions[callee].spelling) + ".whole.\(whole)"
      let function = LLVMAddFunction(module.reference, name, functionType(of: program.functions[callee]))!
      LLVMSetLinkage(function, LLVMInternalLinkage)
      indices.pending.append((body, whole, function))
      copy = function
    }
    indices.copies[key] = copy
    return copy
  }

  /// Emits the copies that the bodies emitted so far asked for (and those they ask for).
  func emitPendingCopies() {
    while !indices.pending.isEmpty {
      let copy = indices.pending.removeFirst()
      emitFunction(copy.function, body: copy.body, wholeParameters: copy.wholeParameters)
    }
  }

  private func definition(of function: FunctionID) -> CheckedBody? {
    if indices.definitions == nil {
      var definitions: [FunctionID: CheckedBody] = [:]
      for body in program.bodies {
        if let function = body.function { definitions[function] = body }
      }
      indices.definitions = definitions
    }
    return indices.definitions?[function]
  }
}
