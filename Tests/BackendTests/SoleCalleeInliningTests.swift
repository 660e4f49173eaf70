import KaleidoscopeBackend
import KaleidoscopeFrontend
import Testing

/// `run` and executables compile the reachable program, whose definitions are internal; a
/// definition the program calls from exactly one place is marked `alwaysinline`, so that the
/// optimiser does not simplify it on its own before inlining it (`IRGenerator.inlineSoleCallees`).
@Suite("Sole callees are inlined without being optimised first")
struct SoleCalleeInliningTests {
  /// A program and the definitions that should be marked.
  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let source: String
    let marked: Set<String>
  }

  static let cases: [Case] = [
    Case(testDescription: "called once, from a top-level expression", source: "def f(x) x * 2\nf(1)", marked: ["f"]),
    Case(testDescription: "called from two places", source: "def f(x) x * 2\nf(1)\nf(2)", marked: []),
    Case(
      testDescription: "called once, from a function called twice",
      source: "def g(x) x + 1\ndef f(x) g(x) * 3\nf(1)\nf(2)", marked: ["g"]),
    Case(
      testDescription: "recursive: its own call is a second use",
      source: "def f(x) if x < 1 then 0 else f(x - 1)\nf(3)", marked: []),
    Case(testDescription: "an operator used once", source: "def binary% 60 (a b) a - b\n5 % 2", marked: ["binary%"]),
    Case(
      testDescription: "too large to force",
      source: "def f(x) " + String(repeating: "x + ", count: 1_200) + "x\nf(1)", marked: []),
  ]

  @Test(arguments: cases)
  func reachableProgram(_ testCase: Case) throws {
    #expect(try Self.alwaysInlineDefinitions(testCase.source, selection: .reachable) == testCase.marked)
  }

  /// `ir` and object files keep every definition external and visible: nothing is forced.
  @Test func wholeModuleForIR() throws {
    #expect(try Self.alwaysInlineDefinitions("def f(x) x * 2\nf(1)", selection: .all) == [])
  }

  /// The user definitions (not the top-level expressions' `__anon_N`) marked `alwaysinline`
  /// in the unoptimised module of `source`.
  static func alwaysInlineDefinitions(_ source: String, selection: ProgramCompiler.Selection) throws -> Set<String> {
    let result = LargeStack.run { Frontend.analyze(SourceFile(name: "test.ks", bytes: Array(source.utf8))) }
    #expect(!result.diagnostics.hasErrors)
    let text = try LargeStack.run {
      Result {
        try ProgramCompiler.compile(
          result.program, in: Context(), for: TargetMachine(optimization: .none), options: CodeGenOptions(),
          optimization: .none, selection: selection
        ).text
      }
    }.get()
    let lines = text.split(separator: "\n").map(String.init)
    let inlineGroups = Set(
      lines.filter { $0.hasPrefix("attributes #") && $0.contains("alwaysinline") }.map { $0.split(separator: " ")[1] })
    var marked: Set<String> = []
    for line in lines where line.hasPrefix("define ") {
      guard let at = line.firstIndex(of: "@"), let open = line[at...].firstIndex(of: "(") else { continue }
      let name = line[line.index(after: at)..<open].replacingOccurrences(of: "\"", with: "")
      let groups = line[open...].split(separator: " ").filter { $0.hasPrefix("#") }
      if !name.hasPrefix("__anon_"), groups.contains(where: inlineGroups.contains) { marked.insert(name) }
    }
    return marked
  }
}
