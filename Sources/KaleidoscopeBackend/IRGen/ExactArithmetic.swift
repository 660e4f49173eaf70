import KaleidoscopeFrontend

/// Which expressions compute, in doubles, exactly what they would in integers: those made
/// of whole numbers known to be small (loop counters, literals, globals and parameters known
/// whole, lengths) and of literals with a short binary fraction (`0.5`, `3.25`), with the
/// built-in `+`, `-`, `*` and division by a literal power of two. Every intermediate result
/// of such an expression is a multiple of some 2^-scale below 2^53 in magnitude, which a
/// double holds exactly, so each operation on doubles rounds nothing, and the integer
/// `value * 2^scale` computed with integer instructions, then converted and scaled, is the
/// very double the program computes. A zero's sign is the one thing integers lose, so an
/// expression that may be -0 stays in doubles (`mayBeNegativeZero`).
///
/// The IR generator uses it for indices (scale 0, no conversion at all) and for arithmetic
/// worth moving out of the floating-point units: `1 / ((i + j) * (i + j + 1) / 2 + i + 1)`
/// is then one integer expression, one conversion and one division, as C computes it.
struct ExactArithmetic {
  /// A value computed exactly: an integer below 2^bits in magnitude, divided by 2^scale.
  struct Value: Equatable {
    var bits: Int
    var scale: Int
  }

  /// The most bits a value may need: below 2^53, a double holds every integer.
  static let exactBits = 53
  /// The finest fraction kept: a literal's, or a division's, finer than 2^-16 stays a double.
  static let maximumScale = 16
  /// The deepest expression looked at (each level is a recursion on this thread).
  static let depthLimit = 32
  /// The most bits an argument may have for its parameter to be known whole
  /// (`parameterBits`): the IR generator passes it through a 32-bit integer, whose
  /// conversion to a double and back LLVM removes once it inlines the call.
  static let argumentBits = 31

  let program: CheckedProgram
  /// The bits of a local known whole and never -0 where the expression is, else nil.
  let localBits: (LocalID) -> Int?
  /// The bits of a global known whole, else nil.
  let globalBits: (GlobalID) -> Int?
  /// Whether a local that `localBits` knows may hold -0.
  var localMayBeNegativeZero: (LocalID) -> Bool = { _ in false }

  private var tree: SyntaxTree { program.tree }

  /// What is known of `id`'s value, if it is computed exactly (see the type's comment).
  func value(of id: ExprID, depth: Int = 0) -> Value? {
    guard depth < Self.depthLimit else { return nil }
    switch tree[id] {
    case .number(let value):
      return Self.literal(value)
    case .variable:
      switch program.variable(of: id) {
      case .local(let local): return localBits(local).map { Value(bits: $0, scale: 0) }
      case .global(let global): return globalBits(global).map { Value(bits: $0, scale: 0) }
      }
    case .length:
      return Value(bits: WholeIndexAnalysis.Whole.index.bits, scale: 0)
    case .unary(_, let operand):
      guard program.callee(of: id) == nil else { return nil }
      return value(of: operand, depth: depth + 1)
    case .binary(let op, let lhs, let rhs):
      guard program.callee(of: id) == nil, let left = value(of: lhs, depth: depth + 1) else { return nil }
      if op == UInt8(ascii: "/") {
        guard case .number(let divisor) = tree[rhs], let exponent = Self.exponent(ofPowerOfTwo: divisor) else {
          return nil
        }
        return Self.checked(Value(bits: left.bits, scale: left.scale + exponent))
      }
      guard let right = value(of: rhs, depth: depth + 1) else { return nil }
      switch op {
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let scale = max(left.scale, right.scale)
        let bits = max(left.bits + scale - left.scale, right.bits + scale - right.scale) + 1
        return Self.checked(Value(bits: bits, scale: scale))
      case UInt8(ascii: "*"):
        return Self.checked(Value(bits: left.bits + right.bits, scale: left.scale + right.scale))
      default:
        return nil
      }
    case .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string, .globalDeclaration,
      .error:
      return nil
    }
  }

  /// The value if it stays within what a double holds exactly.
  private static func checked(_ value: Value) -> Value? {
    value.bits <= exactBits && value.scale <= maximumScale ? value : nil
  }

  /// A literal as an integer over the smallest power of two that makes it one.
  static func literal(_ value: Double) -> Value? {
    guard value.isFinite else { return nil }
    for scale in 0...maximumScale {
      let scaled = value * Double(sign: .plus, exponent: scale, significand: 1)
      guard scaled.rounded(.towardZero) == scaled else { continue }
      guard let whole = WholeIndexAnalysis.literal(scaled), whole.bits <= exactBits - 1 else { return nil }
      return Value(bits: whole.bits, scale: scale)
    }
    return nil
  }

  /// `p` when `value` is 2^p for a `p` from 0 to `maximumScale`.
  static func exponent(ofPowerOfTwo value: Double) -> Int? {
    guard value >= 1, value.significand == 1, Int(value.exponent) <= maximumScale else { return nil }
    return Int(value.exponent)
  }

  /// Whether `id`, whose value this type knows, may evaluate to -0: a negation or a product
  /// may; a sum only of two that may, a difference and a division only from one that may.
  /// Literals (never negative: `-0` is a negation), lengths, and the globals, counters and
  /// parameters known whole never do; an integral local may.
  func mayBeNegativeZero(_ id: ExprID) -> Bool {
    switch tree[id] {
    case .number(let value):
      return value == 0 && value.sign == .minus
    case .variable:
      if case .local(let local) = program.variable(of: id) { return localMayBeNegativeZero(local) }
      return false
    case .length:
      return false
    case .unary(_, let operand):
      // A negated literal other than 0 (`-1`, a loop's start) is not zero at all.
      guard case .number(let value) = tree[operand] else { return true }
      return value == 0
    case .binary(let op, let lhs, let rhs):
      switch op {
      case UInt8(ascii: "+"): return mayBeNegativeZero(lhs) && mayBeNegativeZero(rhs)
      case UInt8(ascii: "-"), UInt8(ascii: "/"): return mayBeNegativeZero(lhs)
      default: return true
      }
    case .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string, .globalDeclaration,
      .error:
      return true
    }
  }

  /// The bits of the magnitude of the counter of `loop` (its local: `variable`) in the
  /// loop's body: the loop is pre-tested, starts at a whole number that cannot be -0, steps
  /// by a small whole literal (or 1), ends when `variable < e` fails for an `e` known below
  /// 2^52, and nothing in it assigns the counter. The counter then takes only whole values
  /// below 2^52 + 2^20 in magnitude, every one exact in a double, and never -0; in the
  /// body, only values from the start up to the bound.
  func counterBits(of loop: ForLoop, variable: LocalID) -> Int? {
    if let step = loop.step {
      guard case .number(let value) = tree[step], value >= 1, value <= Double(1 << 20), value.rounded() == value else {
        return nil
      }
    }
    guard case .binary(let op, let lhs, let bound) = tree[loop.end], op == UInt8(ascii: "<"),
      program.callee(of: loop.end) == nil, case .variable = tree[lhs], program.variable(of: lhs) == .local(variable),
      let start = integerBits(loop.start), let end = integerBits(bound), max(start, end) <= 52,
      !mayBeNegativeZero(loop.start)
    else { return nil }
    let parts = [loop.end, loop.body] + (loop.step.map { [$0] } ?? [])
    guard !parts.contains(where: { Self.assigns(variable, under: $0, in: program) }) else { return nil }
    return max(start, end)
  }

  /// The bits of `id`'s value when it is a whole number computed exactly.
  func integerBits(_ id: ExprID) -> Int? {
    value(of: id).flatMap { $0.scale == 0 ? $0.bits : nil }
  }

  /// Whether `value`, assigned to `variable`, steps it by one with the built-in operators:
  /// `x + 1`, `1 + x` or `x - 1`, `x` being `variable` itself.
  static func isUnitStep(_ value: ExprID, of variable: LocalID, in program: CheckedProgram) -> Bool {
    let tree = program.tree
    guard case .binary(let op, let lhs, let rhs) = tree[value], program.callee(of: value) == nil else { return false }
    func isVariable(_ id: ExprID) -> Bool {
      if case .variable = tree[id] { return program.variable(of: id) == .local(variable) }
      return false
    }
    func isOne(_ id: ExprID) -> Bool {
      if case .number(let number) = tree[id] { return number == 1 }
      return false
    }
    switch op {
    case UInt8(ascii: "+"): return (isVariable(lhs) && isOne(rhs)) || (isOne(lhs) && isVariable(rhs))
    case UInt8(ascii: "-"): return isVariable(lhs) && isOne(rhs)
    default: return false
    }
  }

  /// Whether anything under `root` assigns the local `variable`.
  static func assigns(_ variable: LocalID, under root: ExprID, in program: CheckedProgram) -> Bool {
    program.tree.contains(SyntaxNode(.expr(root))) { node in
      guard case .expr(let id) = node.reference, case .assign(let target, _) = program.tree[id] else { return false }
      return program.reference(of: target) == .local(variable)
    }
  }
}
