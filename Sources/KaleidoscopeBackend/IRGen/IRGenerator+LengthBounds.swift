import KaleidoscopeFrontend

/// Indices proved in bounds by their loop's own bound, when that bound is the array's
/// length less at least the index's offset: `a[j]` and `a[j + 1]` under
/// `for j = 0, j < len(a) - 1 - i`, as a bubble sort or a walk over adjacent pairs is
/// written. The body runs only once `j < B` held, and neither `j` nor `B` changes in it (`B`
/// reads only a length, literals, the counters of loops around, and fixed globals: nothing
/// can assign them), so `j + c <= B - 1 + c < len(a)` when `B <= len(a) - c`; and
/// `j + c >= 0` when the loop starts at 0 or more, since a counter only grows.
/// Unlike `provedInBounds(_:count:)`, the length need not be a constant: in a whole program
/// LLVM proved these checks only after GVN had run, which then could not carry `a[j + 1]`
/// over to the next iteration's `a[j]` past them.
extension IRGenerator {
  /// Whether `index`, an element's index of `array` computed in integers, is a counter plus
  /// a whole literal that its loop's bound keeps within `array`.
  func provedInBounds(_ index: ExprID, of array: VariableReference) -> Bool {
    guard let (counter, offset) = counterPlusOffset(index), offset >= 0, let loop = counterLoops[counter.index],
      let start = lowerBound(of: loop.start), start >= 0, case .binary(_, _, let bound) = tree[loop.end],
      let shortfall = lengthShortfall(of: bound, array: array), shortfall >= offset
    else { return false }
    return true
  }

  /// `id` as a counter whose loop's body the builder is in, plus a whole literal.
  private func counterPlusOffset(_ id: ExprID) -> (LocalID, Int64)? {
    func counter(_ id: ExprID) -> LocalID? {
      guard case .variable = tree[id], case .local(let local) = program.variable(of: id),
        counterLoops[local.index] != nil
      else { return nil }
      return local
    }
    if let local = counter(id) { return (local, 0) }
    guard case .binary(let op, let lhs, let rhs) = tree[id], op == UInt8(ascii: "+"), program.callee(of: id) == nil
    else { return nil }
    if let local = counter(lhs), case .number(let value) = tree[rhs], let offset = Self.whole(value) {
      return (local, offset)
    }
    if let local = counter(rhs), case .number(let value) = tree[lhs], let offset = Self.whole(value) {
      return (local, offset)
    }
    return nil
  }

  /// How much less than the length of `array` the bound `id` is at least: 0 for
  /// `len(array)`, and `len(array) - x - y` adds the least `x` and `y` can be.
  private func lengthShortfall(of id: ExprID, array: VariableReference) -> Int64? {
    switch tree[id] {
    case .length:
      return program.variable(of: id) == array ? 0 : nil
    case .binary(let op, let lhs, let rhs):
      guard op == UInt8(ascii: "-"), program.callee(of: id) == nil, let left = lengthShortfall(of: lhs, array: array),
        let right = lowerBound(of: rhs)
      else { return nil }
      let (sum, overflow) = left.addingReportingOverflow(right)
      return overflow ? nil : sum
    case .number, .variable, .unary, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral,
      .string, .globalDeclaration, .error:
      return nil
    }
  }

  /// The least `id` can be: a literal, a counter's start (it only grows), a sum of such, or
  /// what `range(of:)` knows.
  private func lowerBound(of id: ExprID) -> Int64? {
    switch tree[id] {
    case .variable:
      if case .local(let local) = program.variable(of: id), let loop = counterLoops[local.index] {
        return lowerBound(of: loop.start)
      }
    case .binary(let op, let lhs, let rhs) where op == UInt8(ascii: "+") && program.callee(of: id) == nil:
      guard let left = lowerBound(of: lhs), let right = lowerBound(of: rhs) else { return nil }
      let (sum, overflow) = left.addingReportingOverflow(right)
      return overflow ? nil : sum
    case .number, .binary, .unary, .length, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement,
      .arrayLiteral, .string, .globalDeclaration, .error:
      break
    }
    return range(of: id)?.lowerBound
  }
}
