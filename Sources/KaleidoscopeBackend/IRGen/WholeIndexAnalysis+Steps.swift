import KaleidoscopeFrontend

extension WholeIndexAnalysis {
  /// One assignment to a local: what it is given, and whether it steps the local by one
  /// (`x = x + 1`, `1 + x`, `x - 1`: `ExactArithmetic.isUnitStep`).
  struct Assignment {
    let fact: Whole?
    let byStep: Bool
  }

  /// The `var` locals of `body` that some assignment steps by one, that every other
  /// assignment gives a whole number below 2^53 in magnitude that is never -0, and that a
  /// loop's test reads (`while i < n`) but no index does. Each then holds only whole numbers
  /// from -2^53 to 2^53, never -0, whatever runs: in doubles a step by one stops at ±2^53
  /// (2^53 + 1 rounds to 2^53), which an integer copy follows by stopping there too. A count
  /// that nothing bounds is one. Only a count a loop's test compares is worth a copy: one
  /// only added to, or one that indexes (whose check converts it anyway, and with which
  /// `ExactArithmetic` computes nothing, `r - 1` being beyond its bounds), measured slower
  /// in integers (docs/BENCHMARKS.md).
  static func steppedLocals(of body: CheckedBody, assigned: [[Assignment]], in program: CheckedProgram) -> Set<Int32> {
    // Most bodies step nothing by one: no walk for them.
    guard assigned.contains(where: { $0.contains { $0.byStep } }) else { return [] }
    let (tested, indexing) = localsCompared(under: body.body, in: program)
    let compared = tested.subtracting(indexing)
    return Set(
      body.locals.indices.filter { index in
        body.locals[index].kind == .variable && body.locals[index].valueKind == .number
          && compared.contains(Int32(index)) && assigned[index].contains { $0.byStep }
          && assigned[index].allSatisfy { assignment in
            assignment.byStep || assignment.fact.map { $0.bits <= 53 && !$0.mayBeNegativeZero } ?? false
          }
      }.map { Int32($0) })
  }

  /// The locals (by `LocalID.index`) read under `root` in a loop's test (a `while` loop's
  /// condition, a `for` loop's end) and in an element's index: where an integer copy can
  /// serve a comparison or an index.
  static func localsCompared(
    under root: ExprID, in program: CheckedProgram
  ) -> (inTests: Set<Int32>, inIndices: Set<Int32>) {
    let tree = program.tree
    var tested = Set<Int32>()
    var indexing = Set<Int32>()
    _ = tree.contains(SyntaxNode(.expr(root))) { node in
      guard case .expr(let id) = node.reference else { return false }
      switch tree[id] {
      case .loop(let index):
        switch tree.loop(index) {
        case .forLoop(let parts): tested.formUnion(localsRead(under: parts.end, in: program))
        case .whileLoop(let parts): tested.formUnion(localsRead(under: parts.condition, in: program))
        }
      case .element(_, let index), .storeElement(_, let index, _):
        indexing.formUnion(localsRead(under: index, in: program))
      case .number, .variable, .unary, .binary, .assign, .call, .ifElse, .varIn, .length, .arrayLiteral, .string,
        .globalDeclaration, .error:
        break
      }
      return false
    }
    return (tested, indexing)
  }

  /// The locals (by `LocalID.index`) read under `root`.
  private static func localsRead(under root: ExprID, in program: CheckedProgram) -> Set<Int32> {
    var read = Set<Int32>()
    _ = program.tree.contains(SyntaxNode(.expr(root))) { node in
      if case .expr(let id) = node.reference, case .variable = program.tree[id],
        case .local(let local) = program.variable(of: id)
      {
        read.insert(local.index)
      }
      return false
    }
    return read
  }
}
