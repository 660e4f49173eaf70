/// The binary operators the parser knows, with their precedences.
///
/// Kaleidoscope programs add operators as they go (`def binary| 5 (a b) ...`), and an
/// operator takes effect in the text after its prototype, so the parser updates this table
/// while it reads. The REPL keeps one table for the whole session.
public struct OperatorTable: Sendable, Equatable {
  /// Precedence per ASCII character; 0 means "not a binary operator".
  private var precedences = [UInt8](repeating: 0, count: 128)

  /// The built-in operators: `=` 2 (right-associative), `<` 10, `+ -` 20, `* /` 40.
  public static let standard: OperatorTable = {
    var table = OperatorTable()
    for (op, precedence) in Self.builtinBinary { table.precedences[Int(op)] = UInt8(precedence) }
    return table
  }()

  static let builtinBinary: [(UInt8, Int)] = [
    (UInt8(ascii: "="), 2), (UInt8(ascii: "<"), 10), (UInt8(ascii: "+"), 20),
    (UInt8(ascii: "-"), 20), (UInt8(ascii: "*"), 40), (UInt8(ascii: "/"), 40),
  ]

  /// The lowest and highest precedence a program may give an operator.
  public static let precedenceRange = 1...100
  /// The precedence of an operator defined without one.
  public static let defaultPrecedence = 30

  private init() {}

  /// The operator's precedence, or `nil` when it is not a binary operator.
  public func precedence(of op: UInt8) -> Int? {
    guard op < 128, precedences[Int(op)] > 0 else { return nil }
    return Int(precedences[Int(op)])
  }

  /// Only assignment groups to the right: `a = b = c` is `a = (b = c)`.
  public func isRightAssociative(_ op: UInt8) -> Bool { op == UInt8(ascii: "=") }

  /// Makes `op` a binary operator with the given precedence.
  public mutating func define(_ op: UInt8, precedence: Int) {
    guard op < 128 else { return }
    precedences[Int(op)] = UInt8(clamping: precedence)
  }

  public static func isBuiltinBinary(_ op: UInt8) -> Bool {
    builtinBinary.contains { $0.0 == op }
  }

  /// Unary `-` is built in, but a program may redefine it (tutorial programs do).
  public static func isBuiltinUnary(_ op: UInt8) -> Bool { op == UInt8(ascii: "-") }
}
