import TestSupport
import Testing

@testable import KaleidoscopeFrontend

/// The parser's trees and its diagnostics, and how it recovers from errors.
@Suite("Parser")
struct ParserTests {
  private func parse(_ text: String) -> ParseResult {
    LargeStack.run { Parser.parse(SourceFile(name: "t", text: text)) }
  }

  /// The AST dump of the first item's expression, in one line: `(+ x (* y 2))`.
  private func sexpr(_ text: String) -> String {
    let result = parse(text)
    #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.all)")
    let id: ExprID
    switch result.tree.items.last {
    case .expression(let root)?, .globals(let root)?: id = root
    default: return "<no expression>"
    }
    return SExpression.render(id, in: result.tree)
  }

  @Test(
    "precedence and associativity",
    arguments: [
      ("x + y * 2 + (4 + 5) / 3", "(+ (+ x (* y 2)) (/ (+ 4 5) 3))"),
      ("a < b + c", "(< a (+ b c))"),
      ("a - b - c", "(- (- a b) c)"),
      ("a = b = c + 1", "(= a (= b (+ c 1)))"),
      ("-x * y", "(* (- x) y)"),
      ("f(x, y+1)", "(f x (+ y 1))"),
      ("f()", "(f)"),
      ("if x then y else z + 1", "(if x y (+ z 1))"),
      ("for i = 1, i < n, 2 in f(i)", "(for i 1 (< i n) 2 (f i))"),
      ("for i = 1, n in x", "(for i 1 n x)"),
      ("while i < n in i = i + 1", "(while (< i n) (= i (+ i 1)))"),
      ("while x in while y in z", "(while x (while y z))"),
      ("var a = 1, b in a + b", "(var (a 1) (b) (+ a b))"),
      ("def binary| 5 (a b) a\n1 | 2 + 3", "(| 1 (+ 2 3))"),
      ("def binary& 50 (a b) a\n1 + 2 & 3", "(+ 1 (& 2 3))"),
      ("def binary: 1 (a, b) b\nx : y : z", "(: (: x y) z)"),
      ("def unary!(v) v\n!!x", "(! (! x))"),
      // Data (SPEC §5).
      ("a[i + 1]", "(a[] (+ i 1))"),
      ("a[i] = b[j] = 2", "(a[]= i (b[]= j 2))"),
      ("x = a[0] + len(a)", "(= x (+ (a[] 0) (len a)))"),
      ("f(\"hi\\n\", [1, 2,], [])", "(f \"hi\n\" [1 2] [])"),
      ("\"\\x41\\t\\\\\\\"\\0\"", "\"A\t\\\"\0\""),
      ("var x = 1, a[n], s[] = \"ab\"", "(global (x 1) (a[n]) (s[] \"ab\"))"),
      ("var v[] = [1, x] in v[1]", "(var (v[] [1 x]) (v[] 1))"),
      ("var count", "(global (count))"),
    ])
  func precedence(text: String, expected: String) {
    #expect(sexpr(text) == expected)
  }

  /// Number literals are read with a fast exact path where it applies and `strtod`
  /// otherwise; either way the value must be the correctly rounded one, as Swift's own
  /// `Double(String)` gives it.
  @Test func numberLiteralsAreCorrectlyRounded() {
    var random = SplitMix64(seed: 7)
    var literals = [
      "0", "0.1", "0.2", "0.3", ".5", "1.", "2.5", "123456789012345", "1234567890123456",
      "9007199254740993", "0.000000000000000000001", "0.0000000000000000000000001", "3.14159265358979",
      "1e10", "2.5e-3", "00000000000000000000001.5", "179769313486231570000000000000000000000",
    ]
    for _ in 0..<3000 {
      let digits = String(
        (0..<Int.random(in: 1...18, using: &random)).map { _ in
          Character(String(Int.random(in: 0...9, using: &random)))
        })
      let dot = Int.random(in: 0...digits.count, using: &random)
      literals.append(String(digits.prefix(dot)) + "." + String(digits.dropFirst(dot)))
    }
    for literal in literals where literal != "." {
      let result = parse(literal)
      guard case .expression(let root) = result.tree.items.first, case .number(let value) = result.tree[root] else {
        Issue.record("\(literal) did not parse as a number")
        continue
      }
      #expect(value.bitPattern == Double(literal)!.bitPattern, "\(literal)")
    }
  }

  @Test func arrayParameters() {
    let result = parse("def f(a[] n, b[]) n\nextern g(x)")
    #expect(!result.diagnostics.hasErrors)
    guard case .definition(let definition) = result.tree.items[0] else {
      Issue.record("not a definition")
      return
    }
    #expect(definition.prototype.parameters.map(\.kind) == [.array, .number, .array])
    #expect(result.tree.describe(definition.prototype) == "f(a[] n b[])")
  }

  @Test func bothParameterStyles() {
    let result = parse("def f(x y) x\ndef g(x, y) y\nextern h(a b, c)")
    #expect(!result.diagnostics.hasErrors)
    let arities = result.tree.items.map { item -> Int in
      switch item {
      case .definition(let definition): definition.prototype.arity
      case .external(let prototype): prototype.arity
      default: -1
      }
    }
    #expect(arities == [2, 2, 3])
  }

  @Test func operatorTakesEffectAfterItsPrototype() {
    // The body of the definition itself may use the operator.
    let result = parse("def binary% 60 (a b) a % b\n")
    #expect(!result.diagnostics.hasErrors)
    #expect(result.operators.precedence(of: UInt8(ascii: "%")) == 60)
  }

  @Test(
    "syntax errors point at the right place",
    arguments: [
      ("def 1️⃣(x) x", DiagnosticMessage.expected("a function name in the prototype", found: "'('")),
      ("(1 + 21️⃣ ", .expected("')'", found: "end of file")),
      ("if x then y1️⃣\n", .expected("'else'", found: "end of file")),
      ("def binary1️⃣+ (a b) a", .builtinOperatorRedefinition(kind: .binary, op: "+")),
      ("def binary% 1️⃣200 (a b) a", .invalidPrecedence("200")),
      ("def 1️⃣unary!(a b) a", .operatorArity(kind: .unary, given: 2)),
      ("def binary1️⃣[ 5 (a b) a", .noLongerAnOperator("[")),
      ("def unary1️⃣](v) v", .noLongerAnOperator("]")),
      ("def 1️⃣len(x) x", .expected("a function name in the prototype", found: "'len'")),
      ("def binary| 5 (1️⃣a[] b) a", .operatorTakesNumbers),
      ("var a[3] 1️⃣= 2", .sizedArrayInitializer),
      ("a[0]1️⃣[1]", .oneDimension("a")),
      ("1️⃣\"open", .unterminatedString),
      ("1️⃣\"a\\qb\"", .invalidEscape("\\q")),
      ("var s[] = 1️⃣x", .expected("an array literal or a string after '[] ='", found: "identifier 'x'")),
      ("f([1 1️⃣2])", .expected("',' or ']' in the array literal", found: "number '2'")),
      ("def f(a, b) a 1️⃣== b", .twoCharacterOperator("==")),
      ("def f(a, b) a 1️⃣!= b", .twoCharacterOperator("!=")),
      ("def f(a, b) a 1️⃣+= b", .twoCharacterOperator("+=")),
      ("def f(a, b) a 1️⃣> b", .unknownBinaryOperator(">")),
      ("def f(a, b) g(a 1️⃣% b)", .unknownBinaryOperator("%")),
    ])
  func syntaxErrors(text: String, message: DiagnosticMessage) {
    let source = MarkedSource(text)
    let result = LargeStack.run { Parser.parse(source.file) }
    let first = result.diagnostics.sorted.first
    #expect(first?.message == message)
    #expect(first?.range.start == source["1️⃣"])
  }

  @Test func recoveryReportsEveryIndependentError() {
    let source = MarkedSource(
      """
      def f(x) x + 1️⃣)
      def g(y) y
      extern 2️⃣1(x)
      g(3️⃣,)
      def h(z) z * 2
      """)
    let result = LargeStack.run { Parser.parse(source.file) }
    #expect(result.diagnostics.sorted.map(\.range.start) == [source["1️⃣"], source["2️⃣"], source["3️⃣"]])
    // g and h still parse.
    let defined = result.tree.items.compactMap { item -> String? in
      if case .definition(let definition) = item { return result.tree.text(definition.prototype.name) }
      return nil
    }
    #expect(defined == ["g", "h"])
  }

  @Test func aBrokenDeclarationStillDeclaresTheNamesItReached() {
    let result = parse("var a[3], b = 1, c[] = [1,, 2], d = 4\n")
    #expect(result.diagnostics.all.count == 1)
    guard case .globals(let root)? = result.tree.items.last, case .globalDeclaration(let index) = result.tree[root] else {
      Issue.record("no declaration in \(result.tree.items)")
      return
    }
    let bindings = result.tree.bindings(result.tree.globalDeclaration(index))
    #expect(bindings.map { result.tree.text($0.name) } == ["a", "b", "c"])
    #expect(bindings.map(\.kind) == [.array, .number, .array])
  }

  @Test func recoveryWaitsForAnUnindentedLine() {
    let source = MarkedSource(
      """
      def f(x)
        var h = 0 in
          (while (h 1️⃣!= x) in h = h + 1) :
          (h + 1)
      def g(y) y + 2️⃣)
      g(1)
      """)
    let result = LargeStack.run { Parser.parse(source.file) }
    #expect(result.diagnostics.sorted.map(\.range.start) == [source["1️⃣"], source["2️⃣"]])
    // The indented `(h + 1)` is not taken for a top-level expression; `g(1)` is one.
    let expressions = result.tree.items.filter { if case .expression = $0 { true } else { false } }
    #expect(expressions.count == 1)
  }

  /// What the grammar allows next to an operand stays allowed: a prefix operator against a
  /// binary one, and an item that starts with a prefix operator defined anywhere in the
  /// file or, in the REPL, in an earlier input.
  @Test(arguments: [
    "def f(a) a=-a", "def f(a, b) a<-b", "1 !0\ndef unary!(v) v", "def unary!(v) v\n1 !-2", "1\n!0",
  ])
  func operatorsNextToAnOperandThatAreNoMistake(text: String) {
    #expect(!parse(text).diagnostics.hasErrors, "\(parse(text).diagnostics.all)")
  }

  @Test func aPrefixOperatorFromAnEarlierInputIsNoMistake() {
    var names = NameTable()
    _ = names.intern("unary!")
    let result = LargeStack.run { Parser.parse(SourceFile(name: "t", text: "1 !0"), names: names) }
    #expect(!result.diagnostics.hasErrors)
  }

  @Test func incompleteInputIsFlaggedForTheREPL() {
    #expect(parse("def f(x)").isIncomplete)
    #expect(parse("(1 +").isIncomplete)
    #expect(parse("if x then 1").isIncomplete)
    #expect(!parse("1 + )").isIncomplete)
  }
}

/// A one-line rendering of an expression for compact parser expectations.
enum SExpression {
  static func render(_ id: ExprID, in tree: SyntaxTree) -> String {
    switch tree[id] {
    case .number: return tree.file.text(in: tree.range(of: id))
    case .variable(let name): return tree.text(name)
    case .unary(let op, let operand): return "(\(UnicodeScalar(op)) \(render(operand, in: tree)))"
    case .binary(let op, let lhs, let rhs):
      return "(\(UnicodeScalar(op)) \(render(lhs, in: tree)) \(render(rhs, in: tree)))"
    case .assign(let target, let value): return "(= \(render(target, in: tree)) \(render(value, in: tree)))"
    case .call(let callee, let list):
      return "(" + ([tree.text(callee)] + tree.arguments(list).map { render($0, in: tree) }).joined(separator: " ") + ")"
    case .ifElse(let c, let t, let e):
      return "(if \(render(c, in: tree)) \(render(t, in: tree)) \(render(e, in: tree)))"
    case .loop(let index):
      switch tree.loop(index) {
      case .forLoop(let loop):
        let parts = [loop.start, loop.end] + (loop.step.map { [$0] } ?? []) + [loop.body]
        return "(for \(tree.text(loop.variable)) " + parts.map { render($0, in: tree) }.joined(separator: " ") + ")"
      case .whileLoop(let loop):
        return "(while \(render(loop.condition, in: tree)) \(render(loop.body, in: tree)))"
      }
    case .varIn(let index):
      let varIn = tree.varIn(index)
      return "(var " + bindings(varIn.bindings, in: tree) + " \(render(varIn.body, in: tree)))"
    case .globalDeclaration(let index):
      return "(global " + bindings(tree.globalDeclaration(index), in: tree) + ")"
    case .element(let array, let index): return "(\(tree.text(array))[] \(render(index, in: tree)))"
    case .storeElement(let array, let index, let value):
      return "(\(tree.text(array))[]= \(render(index, in: tree)) \(render(value, in: tree)))"
    case .length(let array): return "(len \(tree.text(array)))"
    case .arrayLiteral(let list): return "[" + tree.arguments(list).map { render($0, in: tree) }.joined(separator: " ") + "]"
    case .string(let index): return "\"" + String(decoding: tree.string(index), as: UTF8.self) + "\""
    case .error: return "<error>"
    }
  }

  private static func bindings(_ bindings: Bindings, in tree: SyntaxTree) -> String {
    tree.bindings(bindings).map { binding in
      let name = tree.text(binding.name)
      switch binding.value {
      case .number(let initializer):
        return "(" + ([name] + (initializer.map { [render($0, in: tree)] } ?? [])).joined(separator: " ") + ")"
      case .zeros(let count): return "(\(name)[\(render(count, in: tree))])"
      case .elements(let elements): return "(\(name)[] \(render(elements, in: tree)))"
      }
    }.joined(separator: " ")
  }
}
