import Foundation
import Testing

/// REPL sessions driven through standard input (no terminal: no prompts).
@Suite("REPL through standard input")
struct ReplTests {
  /// The session's output, which is the same in both tiers: expressions interpreted and
  /// definitions compiled in the background (`auto`), or everything compiled first (`jit`).
  private func session(_ input: String) throws -> Tool.Output {
    let tiered = try Tool.run(["repl"], stdin: input)
    let compiled = try Tool.run(["repl", "--tier", "jit"], stdin: input)
    #expect(tiered.stdout == compiled.stdout)
    #expect(tiered.stderr == compiled.stderr)
    #expect(tiered.status == compiled.status)
    return tiered
  }

  /// `:passes` shows the optimiser on a definition, pass by pass, then the count; it needs
  /// an optimisation level above 0.
  @Test func passesShowWhatEachPassChanged() throws {
    let output = try session("def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\n:passes fib\n:opt 0\n:passes fib\n")
    let lines = output.stdout.split(separator: "\n")
    #expect(lines.contains("*** SROAPass on fib.1 ***"))
    #expect(lines.contains("-  %n.addr = alloca double, align 8"))
    #expect(lines.last?.hasPrefix("; ") == true && lines.last?.hasSuffix(" changed the IR") == true)
    #expect(output.stderr == "error: :passes needs :opt 1, 2 or 3\n")
  }

  /// `:cfg` draws a definition's graph into a new SVG file and prints its path: at `:opt 0`,
  /// the `if` diamond.
  @Test(arguments: [["repl"], ["repl", "--tier", "jit"]])
  func cfgWritesAnSVGFile(arguments: [String]) throws {
    let output = try Tool.run(arguments, stdin: ":opt 0\ndef f(x) if x < 3 then 1 else 2\n:cfg f\n:cfg g\n")
    let paths = output.stdout.split(separator: "\n").map(String.init)
    #expect(paths.count == 1 && paths[0].hasSuffix(".svg"))
    #expect(output.stderr == "error: 'g' is not a function defined in this session\n")
    for path in paths {
      defer { try? FileManager.default.removeItem(atPath: path) }
      let svg = try String(contentsOfFile: path, encoding: .utf8)
      #expect(svg.contains("<svg"))
      #expect(svg.contains("<title>f</title>"))
      #expect(svg.contains("ifcont:"))
    }
  }

  /// `:step` walks an expression into the session's functions, showing each frame and the
  /// line with a caret; Enter steps, `c` runs to the end, `q` stops.
  @Test func stepWalksAnExpressionThroughTheFunctions() throws {
    let output = try session(
      "def fact(n) if n < 2 then 1 else n * fact(n - 1)\nvar g = 5\n:step fact(2) + g\n\n\n\nc\n"
        + ":step fact(3)\n\nq\n:step nope(1)\n1 + 1\n")
    let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "top level")
    #expect(lines.contains("  | fact(2) + g"))
    #expect(lines.contains("step> → fact(n = 2)"))
    #expect(lines.contains("fact: n = 1"))
    #expect(lines.contains("  | def fact(n) if n < 2 then 1 else n * fact(n - 1)"))
    #expect(lines.contains("                ^"))
    #expect(lines.contains("step> 7"))
    #expect(lines.contains("step> (stopped)"))
    #expect(lines.suffix(2) == ["2", ""])
    #expect(output.stderr.contains("error: unknown function 'nope'"))
  }

  @Test func defineAndCall() throws {
    let output = try session("def sq(x) x * x\nsq(12)\n")
    #expect(output.stdout == "144\n")
    #expect(output.stderr.isEmpty)
    #expect(output.status == 0)
  }

  @Test func redefinitionReachesEarlierCallers() throws {
    let output = try session("def f(x) x * 2\ndef g(x) f(x) + 1\ng(1)\ndef f(x) x * 100\ng(1)\n")
    #expect(output.stdout == "3\n101\n")
  }

  @Test func anErrorThenTheSessionGoesOn() throws {
    let output = try session("def f(x) y\nf(1)\ndef f(x) x\nf(7)\n")
    #expect(output.stdout == "7\n")
    #expect(output.stderr.hasPrefix("<repl>:1:10: error: unknown variable 'y'\n"))
    #expect(output.status == 0)
  }

  @Test func preludeMakesACalculator() throws {
    let output = try session("sqrt(16) + pow(2, 3)\nextern sin(x)\nsin(0)\n")
    #expect(output.stdout == "12\n0\n")
    #expect(output.stderr.isEmpty)
  }

  @Test func multiLineInputContinues() throws {
    let output = try session("def add(a b)\n  a + b\nadd(1,\n 2)\n")
    #expect(output.stdout == "3\n")
  }

  @Test func runtimeFaultIsReportedAndTheSessionGoesOn() throws {
    let output = try session("def r(x) r(x + 1) + 1\nr(0)\n2 + 2\n")
    #expect(output.stdout == "4\n")
    #expect(output.stderr == "<repl>:1:10: runtime error: stack overflow: more than 100000 nested calls\n")
    #expect(output.status == 0)
  }

  /// A call of an extern that resolves to nothing is a runtime error like a fault: reported
  /// at the call, and the session keeps its definitions and goes on (`run` ends with status 1
  /// instead).
  @Test func unresolvedExternIsReportedAndTheSessionGoesOn() throws {
    let output = try session(
      "def twice(x) 2 * x\nextern nowhere(x)\nnowhere(1)\ntwice(21)\n1 + nowhere(2)\ndef later(x) nowhere(x)\nlater(3)\n3\n")
    #expect(output.stdout == "42\n3\n")
    #expect(
      output.stderr == """
        <repl>:1:1: runtime error: unresolved external symbol 'nowhere'
        <repl>:1:5: runtime error: unresolved external symbol 'nowhere'
        <repl>:1:14: runtime error: unresolved external symbol 'nowhere'

        """)
    #expect(output.status == 0)
  }

  @Test func userOperatorsPersistAcrossInputs() throws {
    let output = try session("def binary| 5 (a b) if a then 1 else b\n0 | 3\n2 | 3\n")
    #expect(output.stdout == "3\n1\n")
  }

  @Test func aRedefinedOperatorReplacesTheOldOneInLaterInputs() throws {
    let output = try session("def unary!(v) if v then 0 else 1\n!0\ndef unary!(v) 42\n!0\ndef binary~ 5 (a b) a - b\n5 ~ 2\n")
    #expect(output.stdout == "1\n42\n3\n")
  }

  @Test func changingAnArityIsAnError() throws {
    let output = try session("def f(x) x\ndef f(a b) a\nf(5)\n")
    #expect(output.stdout == "5\n")
    #expect(output.stderr.contains("error: conflicting declaration of 'f' with 2 parameters (previously 1)"))
  }

  /// Globals keep their values between inputs; a new declaration of the same kind gives a
  /// global a new value or a new array, which functions defined earlier see.
  @Test func globalsPersistAndRedeclarationsReachEarlierFunctions() throws {
    let output = try session(
      """
      var count = 3, items[4]
      def total() var s = 0 in (for i = 0, i < len(items) in s = s + items[i]) + s
      items[1] = count
      total()
      var items[] = [10, 20]
      total() + count

      """)
    #expect(output.stdout == "3\n3\n33\n")
    #expect(output.stderr.isEmpty)
  }

  @Test func defsAndTypeShowGlobals() throws {
    let output = try session("var n = 2.5, squares[] = [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]\n:defs\n:type squares\n:type n\n")
    #expect(
      output.stdout == """
        var n = 2.5
        var squares[10] = [0, 1, 4, 9, 16, 25, 36, 49, ...]
        var squares[10]    # declared at <repl>:1:14
        var n = 2.5    # declared at <repl>:1:5

        """)
  }

  @Test func aGlobalCannotChangeKind() throws {
    let output = try session("var a[2]\nvar a = 1\nlen(a)\n")
    #expect(output.stdout == "2\n")
    #expect(output.stderr.hasPrefix("<repl>:1:5: error: 'a' is a global array and cannot become a number\n"))
  }

  /// A runtime error ends the input, located, and the session goes on with its globals.
  @Test func anIndexOutOfBoundsEndsTheInputOnly() throws {
    let output = try session("var a[] = [1, 2]\na[2]\na[1] + 1\n")
    #expect(output.stdout == "3\n")
    #expect(output.stderr == "<repl>:1:1: runtime error: index 2 is out of bounds for 'a' (length 2)\n")
  }

  /// An interpreted expression calls earlier inputs' machine code; an error there ends the
  /// input as it does in compiled code, and the session goes on.
  @Test func anErrorInMachineCodeCalledByTheInterpreterEndsTheInputOnly() throws {
    let output = try session(
      """
      def at(a[] i) a[i]
      def deep(n) if n < 1 then 0 else deep(n - 1) + 1
      var v[] = [5, 6]
      at(v, 1) + at(v, 2)
      deep(100000000)
      at(v, 0) + deep(10)

      """)
    #expect(output.stdout == "15\n")
    #expect(
      output.stderr == """
        <repl>:1:15: runtime error: index 2 is out of bounds for 'a' (length 2)
        <repl>:1:34: runtime error: stack overflow: more than 100000 nested calls

        """)
  }

  /// A definition and its first calls in one input: the calls start in the interpreter and
  /// switch to the new code when its compile ends.
  @Test func aDefinitionAndItsCallsInOneInput() throws {
    let output = try session("def fib(n) if n < 2 then n else fib(n - 1) + fib(n - 2)\nfib(25) + fib(1)\n")
    #expect(output.stdout == "75026\n")
  }

  /// Definitions of one input call each other through their slots, set before the
  /// interpreter may switch to any of them.
  @Test func definitionsOfOneInputCallEachOther() throws {
    let output = try session(
      "def step(x) x + 1; def sum(n) if n < 1 then 0 else sum(n - 1) + step(n); sum(20000) + sum(3)\n")
    #expect(output.stdout == "200030009\n")
  }
}
