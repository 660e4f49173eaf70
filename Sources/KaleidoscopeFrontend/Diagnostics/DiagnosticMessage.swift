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
  case unterminatedString
  case invalidEscape(String)

  // MARK: Parser
  case expected(String, found: String)
  case expectedExpression(found: String)
  case invalidPrecedence(String)
  case builtinOperatorRedefinition(kind: OperatorKind, op: String)
  case operatorArity(kind: OperatorKind, given: Int)
  case nestingTooDeep(limit: Int)
  case noLongerAnOperator(String)
  case operatorTakesNumbers
  case sizedArrayInitializer
  case oneDimension(String)
  case fileTooLarge

  // MARK: Semantic analysis
  case unknownVariable(String)
  case unknownFunction(String)
  case unknownUnaryOperator(String)
  case unknownBinaryOperator(String)
  /// `==`, `!=`, `<=`, `&&`: operators of other languages, two characters here.
  case twoCharacterOperator(String)
  case argumentCountMismatch(function: String, expected: Int, given: Int)
  case assignmentToNonVariable
  case redefinition(String)
  case conflictingDeclaration(String, previous: Int, current: Int)
  case duplicateParameter(String)
  case arrayUsedAsNumber(String)
  case arrayAssignedAsWhole(String)
  case numberUsedAsArray(String)
  case arrayLiteralAsNumber
  case stringAsNumber
  case expectedArrayArgument(String, parameter: String)
  case externTakesNumbers(String)
  case externOutsideSandbox(String)
  case conflictingParameterKind(String, parameter: String, isArray: Bool)
  case nameIsFunction(String)
  /// A function's name where a variable's belongs; `inLength` when it is `len`'s operand.
  case functionUsedAsVariable(String, expected: NameKind, inLength: Bool)
  case nameIsGlobal(String)
  case globalKindChanged(String, wasArray: Bool)

  // MARK: Notes
  case previousDefinition(String)
  case previousDeclaration(String)
  case declaredHere(String)
  case didYouMean(String)
  case declareLibraryFunction(String, signature: String)
  case operatorDefinedLater(kind: OperatorKind, op: String)
  case isBinaryOperatorNotUnary(String)
  case defineBinaryOperator(String)
  case twoCharacterHint(String)
  case openedHere(String)
  case parameterKind(String, parameter: String, isArray: Bool)
  case assignmentIsBuiltIn
  case lenIsBuiltIn

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
      return "NUL character in source: this is not a text file, and the rest of it is not read"
    case .controlCharacter(let byte):
      return "invalid control character \(Self.codePoint(UInt32(byte)))"
    case .unterminatedString:
      return "string literal is missing its closing '\"' on this line"
    case .invalidEscape(let escape):
      return "invalid escape '\(escape)' in a string; the escapes are \\n \\t \\\\ \\\" \\0 and \\xHH"
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
    case .noLongerAnOperator(let character):
      return
        "'\(character)' is not an operator character: '[' and ']' enclose array indices and elements, and '\"' strings (since the data extension, SPEC §5); choose another character"
    case .operatorTakesNumbers:
      return "an operator's operands are numbers; an array parameter needs a function"
    case .sizedArrayInitializer:
      return "an array of a given size starts as zeros; to list its elements, write 'a[] = [x, y]'"
    case .oneDimension(let name):
      return "arrays have one dimension: '\(name)[i]' is a number and cannot be indexed"
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
    case .twoCharacterOperator(let spelling):
      return "'\(spelling)' is not an operator: operators are one character long"
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
    case .arrayUsedAsNumber(let name):
      return "'\(name)' is an array; index it, as in \(name)[i], or take len(\(name))"
    case .arrayAssignedAsWhole(let name):
      return "'\(name)' is an array and cannot be assigned as a whole; assign its elements, as in \(name)[i] = x"
    case .numberUsedAsArray(let name):
      return "'\(name)' is a number, not an array"
    case .arrayLiteralAsNumber:
      return "an array literal is not a number: it gives an array its elements (a[] = [1, 2]) or is passed for an array parameter"
    case .stringAsNumber:
      return "a string is not a number: it gives an array its elements (s[] = \"text\") or is passed for an array parameter"
    case .expectedArrayArgument(let function, let parameter):
      return "'\(function)' takes an array for '\(parameter)': pass an array's name, an array literal or a string"
    case .externOutsideSandbox(let name):
      return
        "'\(name)' cannot be used in the sandbox: an extern may name only putchard, printd, getchard, readd and the C math library"
    case .externTakesNumbers(let parameter):
      return "an extern takes numbers only, so '\(parameter)' cannot be an array parameter"
    case .conflictingParameterKind(let function, let parameter, let isArray):
      return
        "conflicting declaration of '\(function)': '\(parameter)' is \(isArray ? "an array" : "a number") here but not in the previous declaration"
    case .nameIsFunction(let name):
      return "'\(name)' is a function; a global variable cannot share its name"
    case .functionUsedAsVariable(let name, _, true):
      return "'\(name)' is a function, but len takes an array"
    case .functionUsedAsVariable(let name, .array, false):
      return "'\(name)' is a function, not an array"
    case .functionUsedAsVariable(let name, .number, false):
      return "'\(name)' is a function, not a variable; call it, as in \(name)(...)"
    case .nameIsGlobal(let name):
      return "'\(name)' is a global variable; a function cannot share its name"
    case .globalKindChanged(let name, let wasArray):
      return "'\(name)' is a global \(wasArray ? "array" : "number") and cannot become \(wasArray ? "a number" : "an array")"
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
    case .defineBinaryOperator(let op):
      return op == ">"
        ? "define it before its first use, as the tutorial does: def binary > 10 (LHS RHS) RHS < LHS"
        : "define it before its first use: def binary \(op) PRECEDENCE (LHS RHS) EXPRESSION"
    case .twoCharacterHint(let spelling):
      return Self.twoCharacterHints[spelling] ?? ""
    case .openedHere(let what):
      return "to match this \(what)"
    case .parameterKind(let function, let parameter, let isArray):
      return "'\(function)' takes \(isArray ? "an array" : "a number") for '\(parameter)'"
    case .lenIsBuiltIn:
      return "'len' is built in since the data extension (SPEC §5): len(a) is the length of the array a; choose another name"
    case .assignmentIsBuiltIn:
      return
        "'=' is built-in assignment here (the tutorial's chapter 6 defined it as equality); give the operator another character, such as '~'"
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
    case .unterminatedString: "unterminated-string"
    case .invalidEscape: "invalid-escape"
    case .expected: "expected-token"
    case .expectedExpression: "expected-expression"
    case .invalidPrecedence: "invalid-precedence"
    case .builtinOperatorRedefinition: "builtin-operator-redefinition"
    case .operatorArity: "operator-arity"
    case .nestingTooDeep: "nesting-too-deep"
    case .noLongerAnOperator: "no-longer-an-operator"
    case .operatorTakesNumbers: "operator-takes-numbers"
    case .sizedArrayInitializer: "sized-array-initializer"
    case .oneDimension: "one-dimension"
    case .fileTooLarge: "file-too-large"
    case .unknownVariable: "unknown-variable"
    case .unknownFunction: "unknown-function"
    case .unknownUnaryOperator: "unknown-unary-operator"
    case .unknownBinaryOperator: "unknown-binary-operator"
    case .twoCharacterOperator: "two-character-operator"
    case .argumentCountMismatch: "argument-count-mismatch"
    case .assignmentToNonVariable: "assignment-to-non-variable"
    case .redefinition: "redefinition"
    case .conflictingDeclaration: "conflicting-declaration"
    case .duplicateParameter: "duplicate-parameter"
    case .arrayUsedAsNumber: "array-used-as-number"
    case .arrayAssignedAsWhole: "array-assigned-as-whole"
    case .numberUsedAsArray: "number-used-as-array"
    case .arrayLiteralAsNumber: "array-literal-as-number"
    case .stringAsNumber: "string-as-number"
    case .expectedArrayArgument: "expected-array-argument"
    case .externTakesNumbers: "extern-takes-numbers"
    case .externOutsideSandbox: "extern-outside-sandbox"
    case .conflictingParameterKind: "conflicting-parameter-kind"
    case .nameIsFunction: "name-is-function"
    case .nameIsGlobal: "name-is-global"
    case .functionUsedAsVariable: "function-used-as-variable"
    case .globalKindChanged: "global-kind-changed"
    case .previousDefinition: "previous-definition"
    case .previousDeclaration: "previous-declaration"
    case .declaredHere: "declared-here"
    case .didYouMean: "did-you-mean"
    case .declareLibraryFunction: "declare-library-function"
    case .operatorDefinedLater: "operator-defined-later"
    case .isBinaryOperatorNotUnary: "binary-operator-not-unary"
    case .defineBinaryOperator: "define-binary-operator"
    case .twoCharacterHint: "two-character-hint"
    case .openedHere: "opened-here"
    case .parameterKind: "parameter-kind"
    case .assignmentIsBuiltIn: "assignment-is-built-in"
    case .lenIsBuiltIn: "len-is-built-in"
    }
  }

  /// How to write what the common two-character operators of other languages mean.
  private static let twoCharacterHints: [String: String] = [
    "==": "compare with an operator of your own: def binary ~ 9 (LHS RHS) if LHS < RHS then 0 else if RHS < LHS then 0 else 1",
    "!=": "compare with an operator of your own: def binary ~ 9 (LHS RHS) if LHS < RHS then 1 else if RHS < LHS then 1 else 0",
    "<=": "'a <= b' can be written 'if b < a then 0 else 1'",
    ">=": "'a >= b' can be written 'if a < b then 0 else 1'",
    "&&": "define '&' as the tutorial does: def binary & 6 (LHS RHS) if LHS then (if RHS then 1 else 0) else 0",
    "||": "define '|' as the tutorial does: def binary | 5 (LHS RHS) if LHS then 1 else if RHS then 1 else 0",
    "+=": "write the assignment out: x = x + e", "-=": "write the assignment out: x = x - e",
    "*=": "write the assignment out: x = x * e", "/=": "write the assignment out: x = x / e",
  ]

  /// Whether `twoCharacterHint` has something to say about `spelling`.
  static func hasTwoCharacterHint(_ spelling: String) -> Bool { twoCharacterHints[spelling] != nil }

  private static func count(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }

  static func codePoint(_ scalar: UInt32) -> String {
    "U+" + hex(scalar, digits: 4)
  }

  static func hex<T: BinaryInteger>(_ value: T, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
