/// The catalogue of every message the front end can produce.
///
/// Keeping the wording in one place keeps it consistent, lets tests match on cases instead of
/// strings, and gives each message a stable identifier (`id`) for documentation and tooling.
public enum DiagnosticMessage: Sendable, Equatable {
  // MARK: Lexer
  case malformedNumber(String)
  case missingExponentDigits(String)
  case numberTooLarge(String)
  case nonASCIICharacter(UInt32)
  case invalidUTF8(UInt8)
  case nulCharacter
  case controlCharacter(UInt8)

  // MARK: Parser
  case expected(String, found: String)
  case expectedExpression(found: String)
  case invalidPrecedence(String)
  case builtinOperatorRedefinition(kind: OperatorKind, op: String)
  case operatorArity(kind: OperatorKind, given: Int)
  case nestingTooDeep(limit: Int)
  case fileTooLarge

  // MARK: Semantic analysis
  case unknownVariable(String)
  case unknownFunction(String)
  case unknownUnaryOperator(String)
  case unknownBinaryOperator(String)
  case argumentCountMismatch(function: String, expected: Int, given: Int)
  case assignmentToNonVariable
  case redefinition(String)
  case conflictingDeclaration(String, previous: Int, current: Int)
  case duplicateParameter(String)

  // MARK: Notes
  case previousDefinition(String)
  case previousDeclaration(String)
  case declaredHere(String)
  case didYouMean(String)
  case declareLibraryFunction(String, signature: String)
  case operatorDefinedLater(kind: OperatorKind, op: String)
  case isBinaryOperatorNotUnary(String)
  case openedHere(String)
  case assignmentIsBuiltIn

  /// Which kind of user-definable operator a message is about.
  public enum OperatorKind: String, Sendable {
    case unary
    case binary
  }

  /// The message as printed after `error:` or `note:`.
  public var text: String {
    switch self {
    case .malformedNumber(let text):
      return "malformed number '\(text)'"
    case .missingExponentDigits(let text):
      return "expected digits after the exponent in '\(text)'"
    case .numberTooLarge(let text):
      return "number '\(text)' is too large to be represented as a double"
    case .nonASCIICharacter(let scalar):
      let shown = Unicode.Scalar(scalar).map { "'\(Character($0))' " } ?? ""
      return "non-ASCII character \(shown)(\(Self.codePoint(scalar))) is only allowed in comments"
    case .invalidUTF8(let byte):
      return "invalid UTF-8 byte 0x\(Self.hex(byte, digits: 2))"
    case .nulCharacter:
      return "NUL character in source"
    case .controlCharacter(let byte):
      return "invalid control character \(Self.codePoint(UInt32(byte)))"
    case .expected(let what, let found):
      return "expected \(what), found \(found)"
    case .expectedExpression(let found):
      return "expected an expression, found \(found)"
    case .invalidPrecedence(let text):
      return "operator precedence must be a whole number from 1 to 100, not '\(text)'"
    case .builtinOperatorRedefinition(let kind, let op):
      return "cannot redefine the built-in \(kind.rawValue) operator '\(op)'"
    case .operatorArity(let kind, let given):
      let expected = kind == .unary ? 1 : 2
      return "a \(kind.rawValue) operator takes \(Self.count(expected, "parameter")), not \(given)"
    case .nestingTooDeep(let limit):
      return "expression is nested too deeply (the limit is \(limit) levels)"
    case .fileTooLarge:
      return "source file is too large (the limit is 2 GiB)"
    case .unknownVariable(let name):
      return "unknown variable '\(name)'"
    case .unknownFunction(let name):
      return "unknown function '\(name)'"
    case .unknownUnaryOperator(let op):
      return "unknown unary operator '\(op)'"
    case .unknownBinaryOperator(let op):
      return "unknown binary operator '\(op)'"
    case .argumentCountMismatch(let function, let expected, let given):
      return "'\(function)' takes \(Self.count(expected, "argument")), but \(given) \(given == 1 ? "was" : "were") given"
    case .assignmentToNonVariable:
      return "the left side of '=' must be a variable"
    case .redefinition(let name):
      return "redefinition of '\(name)'"
    case .conflictingDeclaration(let name, let previous, let current):
      return "conflicting declaration of '\(name)' with \(Self.count(current, "parameter")) (previously \(previous))"
    case .duplicateParameter(let name):
      return "duplicate parameter '\(name)'"
    case .previousDefinition(let name):
      return "previous definition of '\(name)' is here"
    case .previousDeclaration(let name):
      return "previous declaration of '\(name)' is here"
    case .declaredHere(let name):
      return "'\(name)' is declared here"
    case .didYouMean(let name):
      return "did you mean '\(name)'?"
    case .declareLibraryFunction(let name, let signature):
      return "'\(name)' is a library function; declare it first: extern \(signature)"
    case .operatorDefinedLater(let kind, let op):
      return "the \(kind.rawValue) operator '\(op)' is defined here, after its use; an operator takes effect after its definition"
    case .isBinaryOperatorNotUnary(let op):
      return "'\(op)' is a binary operator; it needs an operand on each side"
    case .openedHere(let what):
      return "to match this \(what)"
    case .assignmentIsBuiltIn:
      return "'=' is built-in assignment here (the tutorial's chapter 6 defined it as equality); give the operator another character, such as '~'"
    }
  }

  /// A stable name for the message, e.g. `unknown-variable`.
  public var id: String {
    switch self {
    case .malformedNumber: "malformed-number"
    case .missingExponentDigits: "missing-exponent-digits"
    case .numberTooLarge: "number-too-large"
    case .nonASCIICharacter: "non-ascii-character"
    case .invalidUTF8: "invalid-utf8"
    case .nulCharacter: "nul-character"
    case .controlCharacter: "control-character"
    case .expected: "expected-token"
    case .expectedExpression: "expected-expression"
    case .invalidPrecedence: "invalid-precedence"
    case .builtinOperatorRedefinition: "builtin-operator-redefinition"
    case .operatorArity: "operator-arity"
    case .nestingTooDeep: "nesting-too-deep"
    case .fileTooLarge: "file-too-large"
    case .unknownVariable: "unknown-variable"
    case .unknownFunction: "unknown-function"
    case .unknownUnaryOperator: "unknown-unary-operator"
    case .unknownBinaryOperator: "unknown-binary-operator"
    case .argumentCountMismatch: "argument-count-mismatch"
    case .assignmentToNonVariable: "assignment-to-non-variable"
    case .redefinition: "redefinition"
    case .conflictingDeclaration: "conflicting-declaration"
    case .duplicateParameter: "duplicate-parameter"
    case .previousDefinition: "previous-definition"
    case .previousDeclaration: "previous-declaration"
    case .declaredHere: "declared-here"
    case .didYouMean: "did-you-mean"
    case .declareLibraryFunction: "declare-library-function"
    case .operatorDefinedLater: "operator-defined-later"
    case .isBinaryOperatorNotUnary: "binary-operator-not-unary"
    case .openedHere: "opened-here"
    case .assignmentIsBuiltIn: "assignment-is-built-in"
    }
  }

  private static func count(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }

  private static func codePoint(_ scalar: UInt32) -> String {
    "U+" + hex(scalar, digits: 4)
  }

  private static func hex<T: BinaryInteger>(_ value: T, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
