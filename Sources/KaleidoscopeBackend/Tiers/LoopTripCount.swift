import KaleidoscopeFrontend

extension CheckedProgram {
  /// The iterations of a run of the loop at `node`, when it is a `for` counting by 1 while
  /// `variable < bound`, and the start and the bound are computed from literals, the `fixed`
  /// globals (numbers, and arrays' lengths) and the built-in `+`, `-` and `*`; nil for any
  /// other loop. The bound is
  /// evaluated again at every iteration, and the body may change it: the count is for
  /// decisions of speed only (what tiered execution compiles, and when).
  func tripCount(ofLoop node: ExprID, fixed: IRGenerator.FixedGlobals) -> Double? {
    guard case .loop(let index) = tree[node], case .forLoop(let parts) = tree.loop(index), parts.step == nil,
      let start = value(of: parts.start, fixed: fixed), case .binary(let op, _, let bound) = tree[parts.end],
      op == UInt8(ascii: "<"), callee(of: parts.end) == nil
    else { return nil }
    return value(of: bound, fixed: fixed).map { $0 - start }
  }

  /// The value of `expression` when it is made of literals, `fixed` globals and the
  /// built-in `+`, `-` and `*`.
  private func value(of expression: ExprID, fixed: IRGenerator.FixedGlobals) -> Double? {
    switch tree[expression] {
    case .number(let value):
      return value
    case .variable:
      guard case .global(let global) = variable(of: expression) else { return nil }
      return fixed.numbers[global.index]
    case .length:
      guard case .global(let global) = variable(of: expression) else { return nil }
      return fixed.arrays[global.index].map { Double($0) }
    case .binary(let op, let lhs, let rhs):
      guard callee(of: expression) == nil, let left = value(of: lhs, fixed: fixed),
        let right = value(of: rhs, fixed: fixed)
      else { return nil }
      switch op {
      case UInt8(ascii: "+"): return left + right
      case UInt8(ascii: "-"): return left - right
      case UInt8(ascii: "*"): return left * right
      default: return nil
      }
    case .unary, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string,
      .globalDeclaration, .error:
      return nil
    }
  }
}
