import CLLVM
import KaleidoscopeFrontend

/// Indices proved in bounds before LLVM sees them. In a loop's body, a counter that lives
/// as an integer (`integerCounterBits`) lies between the least its start can be and one
/// below the most its bound can be: it starts there, only grows, nothing else assigns it,
/// and the body runs only once `counter < bound` held. An index computed in integers from
/// such counters, literals and globals the module has as constants, with `+`, `-`, `*` and
/// negation, then has a range; if that lies within an array whose length is a constant,
/// the access needs no check. LLVM proves the same only for loops it sees from their
/// start: in the rest of a running loop the counters come from the frame, and a 3×3
/// window's nine checks made LLVM's loop passes spend more time on them than on the rest
/// of the module.
extension IRGenerator {
  /// The range of `loop`'s counter in its body, when its start and bound have ranges.
  func counterRangeInBody(of loop: ForLoop) -> ClosedRange<Int64>? {
    guard case .binary(_, _, let bound) = tree[loop.end], let start = range(of: loop.start),
      let end = range(of: bound), start.lowerBound <= end.upperBound - 1
    else { return nil }
    return start.lowerBound...(end.upperBound - 1)
  }

  /// Emits `body`, the body of `loop` (whose counter is `local`), with the counter's range
  /// and loop known inside it.
  func withCounterRange(of loop: ForLoop, local: LocalID, _ body: () -> Void) {
    let range = counterRangeInBody(of: loop)
    counterRanges[local.index] = range
    counterLoops[local.index] = loop
    body()
    counterRanges[local.index] = nil
    counterLoops[local.index] = nil
  }

  /// Whether an index computed in integers (`index`) always lies within `count`, a length.
  func provedInBounds(_ index: ExprID, count: LLVMValueRef) -> Bool {
    guard LLVMIsAConstantInt(count) != nil, let range = range(of: index) else { return false }
    return range.lowerBound >= 0 && range.upperBound < LLVMConstIntGetSExtValue(count)
  }

  /// The values `id` can take here, from the counters' ranges; nil when not known.
  func range(of id: ExprID) -> ClosedRange<Int64>? {
    switch tree[id] {
    case .number(let value):
      return Self.whole(value).map { $0...$0 }
    case .variable:
      switch program.variable(of: id) {
      case .local(let local): return counterRanges[local.index]
      case .global(let global): return fixedValue(of: global).flatMap(Self.whole).map { $0...$0 }
      }
    case .unary(_, let operand):
      // Without a definition of its own, a unary operator is the built-in negation.
      guard program.callee(of: id) == nil, let range = range(of: operand) else { return nil }
      return -range.upperBound...(-range.lowerBound)
    case .binary(let op, let lhs, let rhs):
      guard program.callee(of: id) == nil, let left = range(of: lhs), let right = range(of: rhs) else { return nil }
      return Self.combine(left, right, op)
    case .length, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string,
      .globalDeclaration, .error:
      return nil
    }
  }

  /// `value` as an integer, when it is a whole number well inside what doubles count exactly.
  static func whole(_ value: Double) -> Int64? {
    value.rounded() == value && abs(value) < 0x1p52 ? Int64(value) : nil
  }

  /// The range of `left op right` for `+`, `-` and `*`; nil for other operators, or past
  /// 2^52, where the index would not be computed in integers anyway.
  private static func combine(_ left: ClosedRange<Int64>, _ right: ClosedRange<Int64>, _ op: UInt8)
    -> ClosedRange<Int64>?
  {
    let ends: [Int64]
    switch op {
    case UInt8(ascii: "+"): ends = [left.lowerBound + right.lowerBound, left.upperBound + right.upperBound]
    case UInt8(ascii: "-"): ends = [left.lowerBound - right.upperBound, left.upperBound - right.lowerBound]
    case UInt8(ascii: "*"):
      let products = [left.lowerBound, left.upperBound].flatMap { a in
        [right.lowerBound, right.upperBound].map { a.multipliedReportingOverflow(by: $0) }
      }
      guard !products.contains(where: \.overflow) else { return nil }
      ends = products.map(\.partialValue)
    default: return nil
    }
    guard let low = ends.min(), let high = ends.max(), abs(low) < 1 << 52, abs(high) < 1 << 52 else { return nil }
    return low...high
  }
}
