import TestSupport
import Testing

@testable import KaleidoscopeFrontend

/// The checker's diagnostics: names, kinds of values, arities, operators.
@Suite("Semantic analysis")
struct SemaTests {
  @Test(
    "static rules",
    arguments: [
      ("def f(x) 1️⃣y", DiagnosticMessage.unknownVariable("y")),
      ("1️⃣foo(1)", .unknownFunction("foo")),
      ("def f(a b) a\n1️⃣f(1)", .argumentCountMismatch(function: "f", expected: 2, given: 1)),
      ("def f(x) (x + 1) 1️⃣= 2", .assignmentToNonVariable),
      ("def f(x) x\ndef 1️⃣f(y) y", .redefinition("f")),
      ("extern g(a)\nextern 1️⃣g(a b)", .conflictingDeclaration("g", previous: 1, current: 2)),
      ("def h(a 1️⃣a) a", .duplicateParameter("a")),
      ("1️⃣!1", .unknownUnaryOperator("!")),
      ("def f(x) var a = 1 in a\n1️⃣a", .unknownVariable("a")),
      ("def f(x) for i = 0, i < 3 in i\ndef g(x) 1️⃣i", .unknownVariable("i")),
      ("def f(x) for i = 1️⃣i, 1 in 0", .unknownVariable("i")),
      // Data (SPEC §5): each misuse names the kind that was expected.
      ("var a[3]\n1️⃣a + 1", .arrayUsedAsNumber("a")),
      ("def f(v[]) 1️⃣v", .arrayUsedAsNumber("v")),
      ("var a[3]\n1️⃣a = 2", .arrayAssignedAsWhole("a")),
      ("var x\n1️⃣x[0]", .numberUsedAsArray("x")),
      ("var x\na[0] = x + a[0]\nvar a[1]", .none),
      ("def f(x) len(1️⃣x)", .numberUsedAsArray("x")),
      ("var x = 1️⃣[1, 2]", .arrayLiteralAsNumber),
      ("1 + 1️⃣\"text\"", .stringAsNumber),
      ("def f(v[]) 0\nf(1️⃣1 + 2)", .expectedArrayArgument("f", parameter: "v")),
      ("def f(v[]) 0\nvar x\nf(1️⃣x)", .numberUsedAsArray("x")),
      ("def f(n) n\nvar a[2]\nf(1️⃣a)", .arrayUsedAsNumber("a")),
      ("extern sqrt(x)\nvar a[2]\nsqrt(1️⃣a)", .arrayUsedAsNumber("a")),
      ("extern g(1️⃣s[])", .externTakesNumbers("s")),
      ("def f(n) n\nvar 1️⃣f = 1", .nameIsFunction("f")),
      ("var f = 1\ndef 1️⃣f(n) n", .nameIsGlobal("f")),
      // A function's name where a variable's belongs says so, wherever the function is.
      ("def s(a[]) len(1️⃣s2)\ndef s2(x) x", .functionUsedAsVariable("s2", expected: .array, inLength: true)),
      ("def s2(x) x\ndef s(a[]) len(1️⃣s2)", .functionUsedAsVariable("s2", expected: .array, inLength: true)),
      ("def g(x) x\n1️⃣g[0]", .functionUsedAsVariable("g", expected: .array, inLength: false)),
      ("def f(v[]) 0\nextern g(x)\nf(1️⃣g)", .functionUsedAsVariable("g", expected: .array, inLength: false)),
      ("def g(x) x\n1️⃣g + 1", .functionUsedAsVariable("g", expected: .number, inLength: false)),
      ("def g(x) x\n1️⃣g = 1", .functionUsedAsVariable("g", expected: .number, inLength: false)),
      ("var g = 1\nvar 1️⃣g[2]", .redefinition("g")),
      ("extern f(a)\ndef f(1️⃣a[]) 0", .conflictingParameterKind("f", parameter: "a", isArray: true)),
      // Uses before declarations resolve at the end of the file, with the same checks.
      ("def f() 1️⃣g + 1\nvar g[2]", .arrayUsedAsNumber("g")),
      ("h(1️⃣a)\ndef h(n) n\nvar a[2]", .arrayUsedAsNumber("a")),
      ("h(1️⃣2)\ndef h(v[]) 0", .expectedArrayArgument("h", parameter: "v")),
      ("def f() 1️⃣nowhere", .unknownVariable("nowhere")),
    ] as [(String, DiagnosticMessage?)])
  func staticRules(text: String, message: DiagnosticMessage?) {
    let source = MarkedSource(text)
    let result = analyze(source.file)
    #expect(errors(of: result).map(\.1) == (message.map { [$0] } ?? []))
    if message != nil { #expect(errors(of: result).first?.0 == source["1️⃣"]) }
  }

  @Test(
    "valid programs with data",
    arguments: [
      "var a[3], x = 1\na[0] = x\nlen(a)",
      "def sum(v[]) var s = 0 in (for i = 0, i < len(v) in s = s + v[i]) + s\nsum([1, 2])\nsum(\"ab\")",
      "def f() g[0] + n\nvar g[] = [1], n = 2\nf()",  // globals declared after their use
      "def f(a[]) a[0]\ndef g(a[]) f(a)\nvar b[1]\ng(b)",  // arrays passed on
      "var a[2]\ndef f(a) a + 1\nf(3)",  // a parameter shadows a global
      "var x = x + 1",  // the global exists (as 0) while its initialiser runs
      "later(b)\ndef later(v[]) len(v)\nvar b[4]",  // forward call and forward global
    ])
  func validData(text: String) {
    let result = analyze(SourceFile(name: "t.ks", text: text))
    #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.all.map(\.description))")
  }

  @Test func globalKindCannotChangeInTheREPL() {
    let first = Frontend.check(SourceFile(name: "1", text: "var a[3]\nvar x = 1"), mode: .interactive)
    #expect(!first.diagnostics.hasErrors)
    let same = Frontend.check(SourceFile(name: "2", text: "var a[5]\nvar x = 2"), after: first.declarations, mode: .interactive)
    #expect(!same.diagnostics.hasErrors)
    let changed = Frontend.check(SourceFile(name: "3", text: "var a = 1"), after: first.declarations, mode: .interactive)
    #expect(changed.diagnostics.all.map(\.message) == [.globalKindChanged("a", wasArray: true)])
  }

  /// `check` keeps only diagnostics, dropping each item once checked; uses of what is
  /// declared further on are put off either way. Both retentions must report the same.
  @Test(
    "checking without keeping the program reports what keeping it reports",
    arguments: [
      ("def a() b(1, 2)\ndef b(x) x", 1),  // forward call, wrong arity
      ("extern f(x)\ndef g() f(1, 2)\ndef f(x) x", 1),  // the note points at the later definition
      ("def g() fooo(1)\ndef foo(x) x", 1),  // the suggestion comes from further down
      ("def g(x) !x\ndef unary!(v) 0\n!1", 0),  // a unary operator defined later
      ("def g(x) x ~ 1\ndef binary~ 5 (a b) a", 1),  // a binary operator used before its definition
      ("def f(x) x\ndef f(y) y\nf(1, 2)\nnope(3)\ndef h(a a) q", 5),  // several at once
      ("def f(x) g(x) + 1\ndef g(x) f(x - 1)", 0),  // mutual recursion: nothing to report
      ("def f(x) (x +\ndef g(y) y\ng(1, 2)\n1 +", 3),  // syntax errors between items
    ])
  func retentionsAgree(text: String, errorCount: Int) {
    let file = SourceFile(name: "t.ks", text: text)
    let renderer = DiagnosticRenderer(useColor: false)
    let kept = analyze(file).diagnostics
    let dropped = LargeStack.run { Frontend.check(file, keeping: .diagnostics) }.diagnostics
    #expect(dropped.sorted.map(renderer.render) == kept.sorted.map(renderer.render))
    #expect(kept.errorCount == errorCount)
  }

  /// A call of a function defined further down resolves once the file is read, and the
  /// caller's callees include it (what `run` compiles follows the callees).
  @Test func forwardCallsAreResolvedAndRecorded() throws {
    let program = analyze(SourceFile(name: "t", text: "def f(a) g(a) + !a\ndef g(x) x\ndef unary!(v) v\nf(1)")).program
    let f = try #require(program.body(ofFunction: "f"))
    #expect(Set(f.callees.map { program.functions[$0].spelling }) == ["g", "unary!"])
    #expect(program.reachableBodies.count == 4)
  }

  @Test(
    "valid programs",
    arguments: [
      "def f(x) g(x) + 1\ndef g(x) f(x - 1)",  // use before definition, mutual recursion
      "extern sin(x)\nextern sin(y)\nsin(1)",  // identical redeclaration
      "extern f(x)\ndef f(x) x",  // declaration then definition
      "def unary-(v) 0 - v\n-1",  // redefining unary minus is allowed
      "-1",  // built-in unary minus
      "def f(x) var a = 1, b = a * 2 in b = a + x",  // initialisers see earlier bindings
      "def f(x) var x = x + 1 in x",  // an initialiser sees the outer binding it shadows
      "def f(x) (for x = 0, x < 2 in x) + x",  // loop variable shadows only inside the loop
      "x = 1",  // nonsense is still parsed; sema reports
    ].dropLast())
  func validPrograms(text: String) {
    let result = analyze(SourceFile(name: "t", text: text))
    #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.all)")
  }

  @Test func redefinitionNotePointsAtTheFirstDefinition() throws {
    let source = MarkedSource("def 1️⃣f(x) x\ndef 2️⃣f(x) x")
    let diagnostic = try #require(analyze(source.file).diagnostics.all.first)
    #expect(diagnostic.range.start == source["2️⃣"])
    #expect(diagnostic.notes.first?.message == .previousDefinition("f"))
    #expect(diagnostic.notes.first?.range?.start == source["1️⃣"])
  }

  @Test func unknownLibraryFunctionSuggestsTheExtern() throws {
    let diagnostic = try #require(analyze(SourceFile(name: "t", text: "sqrt(2)")).diagnostics.all.first)
    #expect(diagnostic.notes.map(\.message) == [.declareLibraryFunction("sqrt", signature: "sqrt(x)")])
  }

  @Test func typoSuggestsTheClosestFunction() throws {
    let diagnostic = try #require(analyze(SourceFile(name: "t", text: "def fib(n) n\nfob(1)")).diagnostics.all.first)
    #expect(diagnostic.notes.map(\.message) == [.didYouMean("fib")])
  }

  @Test func binaryOperatorUsedBeforeItsDefinitionExplainsWhy() throws {
    let diagnostic = try #require(
      analyze(SourceFile(name: "t", text: "def f(a b) a | b\ndef binary| 5 (a b) a")).diagnostics.sorted.first)
    #expect(diagnostic.message == .unknownBinaryOperator("|"))
    #expect(diagnostic.notes.first?.message == .operatorDefinedLater(kind: .binary, op: "|"))
  }

  @Test func everyErrorInAFileIsReported() {
    let result = analyze(SourceFile(name: "t", text: "def f(x) a + b\nc\ng(1)\nf(1, 2)"))
    #expect(result.diagnostics.errorCount == 5)
  }

  @Test func resolutionsAndCallees() throws {
    let result = analyze(SourceFile(name: "t", text: "def g(x) x\ndef f(a) var b = a in g(b) + g(a)\nf(1)"))
    let program = result.program
    let f = try #require(program.body(ofFunction: "f"))
    #expect(f.locals.map { program.tree.text($0.name) } == ["a", "b"])
    #expect(f.callees.map { program.functions[$0].spelling } == ["g"])
    #expect(program.entryBodies.count == 1)
  }

  /// A sandboxed file may declare only the runtime's functions and libm's.
  @Test(
    arguments: [
      ("extern 1️⃣system(x)", DiagnosticMessage.externOutsideSandbox("system")),
      ("extern sin(x)\nextern getchard()\nextern readd()\nextern printd(x)\nextern putchard(c)\nsin(1)", nil),
      ("def f(x) x\nextern pow(x y)\nextern 1️⃣fopen(p m)", DiagnosticMessage.externOutsideSandbox("fopen")),
    ] as [(String, DiagnosticMessage?)])
  func sandboxedExterns(text: String, message: DiagnosticMessage?) {
    let source = MarkedSource(text)
    let result = Frontend.check(source.file, mode: .sandboxed)
    #expect(errors(of: result).map(\.1) == (message.map { [$0] } ?? []))
    if message != nil { #expect(errors(of: result).first?.0 == source["1️⃣"]) }
    // Outside the sandbox, every extern may be declared.
    #expect(!Frontend.check(source.file).diagnostics.hasErrors)
  }

  @Test func interactiveModeReplacesDefinitions() {
    let first = Frontend.check(SourceFile(name: "1", text: "def f(x) x"), mode: .interactive)
    let again = Frontend.check(SourceFile(name: "2", text: "def f(x) x + 1"), after: first.declarations, mode: .interactive)
    #expect(!again.diagnostics.hasErrors)
    #expect(again.program.functions.symbols.count == 1)
    #expect(again.program.bodies.count == 1)
  }
}
