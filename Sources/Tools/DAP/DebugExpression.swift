import KaleidoscopeFrontend
import KaleidoscopeInterpreter

/// The expressions a debugger evaluates in a frame (`evaluate`, breakpoint conditions,
/// logpoints' `{…}`): numbers, variables (the frame's locals, then globals), elements
/// `a[i]`, `len(a)`, parentheses, unary `-` and the built-in binary operators with the language's
/// precedences (`OperatorTable.standard`). The tokens are the language's own lexer's. A
/// user-defined operator would need the program's code to run in the middle of a stop, so
/// it is refused with a message.
struct DebugExpression {
  /// A value: a number, or an array (shown by its elements).
  enum Value {
    case number(Double)
    case array(DebugArray)
  }

  /// Why an expression has no value here, said to the user.
  struct Failure: Error {
    let message: String
  }

  private let file: SourceFile
  private let tokens: [Token]
  private var position = 0
  private let interpreter: Interpreter
  private let frame: DebugFrame?

  /// Evaluates `text` in `frame` (nil: globals only).
  static func evaluate(_ text: String, in frame: DebugFrame?, of interpreter: Interpreter) throws(Failure) -> Value {
    var expression = DebugExpression(text: text, interpreter: interpreter, frame: frame)
    let value = try expression.parseExpression(precedence: 1)
    guard expression.peek.kind == .endOfFile else {
      throw Failure(message: "unexpected '\(expression.text(of: expression.peek))' in '\(text)'")
    }
    return value
  }

  private init(text: String, interpreter: Interpreter, frame: DebugFrame?) {
    file = SourceFile(name: "expression", text: text)
    tokens = Lexer.tokenize(file)
    self.interpreter = interpreter
    self.frame = frame
  }

  private var peek: Token { tokens[min(position, tokens.count - 1)] }

  private func text(of token: Token) -> String { file.text(in: token.range) }

  private mutating func take() -> Token {
    defer { position += 1 }
    return peek
  }

  private mutating func parseExpression(precedence minimum: Int) throws(Failure) -> Value {
    var left = try parseUnary()
    while peek.kind == .operatorChar, let op = text(of: peek).utf8.first {
      guard let precedence = OperatorTable.standard.precedence(of: op), op != UInt8(ascii: "=") else {
        throw Failure(message: "'\(text(of: peek))' cannot be evaluated while the program is stopped")
      }
      guard precedence >= minimum else { break }
      _ = take()
      let right = try parseExpression(precedence: precedence + 1)
      left = .number(Self.apply(op, try number(left), try number(right)))
    }
    return left
  }

  private mutating func parseUnary() throws(Failure) -> Value {
    if peek.kind == .operatorChar && text(of: peek) == "-" {
      _ = take()
      return .number(-(try number(try parseUnary())))
    }
    return try parsePrimary()
  }

  private mutating func parsePrimary() throws(Failure) -> Value {
    let token = take()
    switch token.kind {
    case .number:
      guard let value = Double(text(of: token)) else { throw Failure(message: "'\(text(of: token))' is not a number") }
      return .number(value)
    case .leftParen:
      let value = try parseExpression(precedence: 1)
      guard take().kind == .rightParen else { throw Failure(message: "expected ')'") }
      return value
    case .identifier:
      let value = try variable(text(of: token))
      guard peek.kind == .leftBracket else { return value }
      _ = take()
      let index = try number(try parseExpression(precedence: 1))
      guard take().kind == .rightBracket else { throw Failure(message: "expected ']'") }
      guard case .array(let array) = value else { throw Failure(message: "'\(text(of: token))' is not an array") }
      guard index >= 0, index < Double(array.count), index.rounded(.towardZero) == index else {
        throw Failure(message: "index \(index) is out of bounds for '\(text(of: token))' (length \(array.count))")
      }
      return .number(interpreter.elements(of: array, start: Int(index), count: 1)[0])
    case .keyword(.len):
      guard take().kind == .leftParen, case .array(let array) = try variable(text(of: take())),
        take().kind == .rightParen
      else { throw Failure(message: "expected len(ARRAY)") }
      return .number(Double(array.count))
    case .endOfFile:
      throw Failure(message: "an expression is expected")
    default:
      throw Failure(message: "unexpected '\(text(of: token))'")
    }
  }

  private func variable(_ name: String) throws(Failure) -> Value {
    let locals = frame.map { interpreter.locals(of: $0) } ?? []
    // The innermost declaration of a shadowed name is the last one.
    guard let found = locals.last(where: { $0.name == name }) ?? interpreter.globalValues.first(where: { $0.name == name })
    else { throw Failure(message: "no variable '\(name)' here") }
    switch found.value {
    case .number(let value): return .number(value)
    case .array(let array): return .array(array)
    }
  }

  private func number(_ value: Value) throws(Failure) -> Double {
    guard case .number(let number) = value else { throw Failure(message: "an array is not a number") }
    return number
  }

  /// The built-in operators, as the language computes them (SPEC §3).
  private static func apply(_ op: UInt8, _ lhs: Double, _ rhs: Double) -> Double {
    switch op {
    case UInt8(ascii: "+"): lhs + rhs
    case UInt8(ascii: "-"): lhs - rhs
    case UInt8(ascii: "*"): lhs * rhs
    case UInt8(ascii: "/"): lhs / rhs
    default: (lhs < rhs || lhs.isNaN || rhs.isNaN) ? 1 : 0
    }
  }
}
