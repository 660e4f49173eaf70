import KaleidoscopeFrontend

/// Parameters known to be small whole numbers, from every call in a whole program.
extension ExactArithmetic {
  /// For each function, by `FunctionID.index`, the bits of each parameter (by position)
  /// that every call in `program` passes a whole number below 2^`argumentBits` that is
  /// never -0 (a loop counter in its loop's body, a literal, a global known whole, a length,
  /// or a sum or product of those), and that the function never assigns; nil for the rest,
  /// and for functions nothing calls. Inside such a function the parameter is known whole
  /// just as a counter is, so arithmetic on it can be exact (`a(i, j)` of spectral-norm,
  /// called with two counters, computes its denominator in integers).
  ///
  /// Sound only for a whole program whose functions nothing else calls: not in the REPL,
  /// not in an object or executable that exports them, not under a debugger, which may
  /// call a function with any argument. The counters are those of the `for` loops the IR
  /// generator counts in integers (`counterBits`), known here without a walk of the values
  /// of other locals.
  static func parameterBits(of program: CheckedProgram, globals: [WholeIndexAnalysis.Whole?]) -> [[Int?]] {
    var calls: [[Int?]?] = Array(repeating: nil, count: program.functions.symbols.count)
    let globalBits = { (global: GlobalID) -> Int? in
      Int(global.index) < globals.count ? globals[Int(global.index)]?.bits : nil
    }
    // A body that calls nothing has no call to look at.
    for body in program.bodies where !body.callees.isEmpty {
      var work: [(node: SyntaxNode, counters: [Int32: Int])] = [(SyntaxNode(.expr(body.body)), [:])]
      while let item = work.popLast() {
        let (node, counters) = item
        var inBody = counters
        var loopBody: ExprID?
        if case .expr(let id) = node.reference {
          let arithmetic = { ExactArithmetic(program: program, localBits: { counters[$0.index] }, globalBits: globalBits) }
          if let (callee, arguments) = call(at: id, in: program) {
            let arithmetic = arithmetic()
            let passed = arguments.map { argument -> Int? in
              guard let bits = arithmetic.integerBits(argument), bits <= argumentBits,
                !arithmetic.mayBeNegativeZero(argument)
              else { return nil }
              return bits
            }
            calls[Int(callee.index)] = calls[Int(callee.index)].map { zip($0, passed).map(merge) } ?? passed
          }
          if case .loop(let index) = program.tree[id], case .forLoop(let loop) = program.tree.loop(index) {
            let variable = program.loopVariable(of: id)
            if let bits = arithmetic().counterBits(of: loop, variable: variable) {
              inBody[variable.index] = bits
              loopBody = loop.body
            }
          }
        }
        for child in program.tree.children(of: node) {
          if case .expr(let id) = child.reference, id == loopBody {
            work.append((child, inBody))
          } else {
            work.append((child, counters))
          }
        }
      }
    }
    var definitions: [FunctionID: CheckedBody] = [:]
    for body in program.bodies {
      if let function = body.function { definitions[function] = body }
    }
    return program.functions.symbols.indices.map { index in
      let function = FunctionID(index: Int32(index))
      guard let passed = calls[index], let body = definitions[function] else { return [] }
      let arity = program.functions[function].arity
      return (0..<arity).map { position in
        let parameter = LocalID(index: Int32(position))
        guard position < passed.count, body.locals[position].valueKind == .number,
          !assigns(parameter, under: body.body, in: program)
        else { return nil }
        return passed[position]
      }
    }
  }

  /// The defined function a node calls, and its arguments: a call, or an operator the
  /// program defines.
  private static func call(at id: ExprID, in program: CheckedProgram) -> (FunctionID, [ExprID])? {
    let arguments: [ExprID]
    switch program.tree[id] {
    case .call(_, let list): arguments = Array(program.tree.arguments(list))
    case .binary(_, let lhs, let rhs): arguments = [lhs, rhs]
    case .unary(_, let operand): arguments = [operand]
    case .number, .variable, .assign, .ifElse, .loop, .varIn, .element, .storeElement, .length, .arrayLiteral, .string,
      .globalDeclaration, .error:
      return nil
    }
    // Asked only of a call or an operator: the table answers other questions for other nodes.
    guard let callee = program.callee(of: id), program.functions[callee].origin == .defined else { return nil }
    return (callee, arguments)
  }

  /// What two calls together pass: the larger bound, when both pass a known one.
  private static func merge(_ a: Int?, _ b: Int?) -> Int? {
    guard let a, let b else { return nil }
    return max(a, b)
  }
}
