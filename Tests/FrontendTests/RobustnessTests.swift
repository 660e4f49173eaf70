import TestSupport
import Testing

@testable import KaleidoscopeFrontend

/// Inputs built to break a naive front end: deep nesting, huge chains, random mutations.
/// Each must end in a diagnostic or a correct result, never a crash or a hang.
@Suite("Robustness")
struct RobustnessTests {
  private static func repeated(_ piece: String, _ count: Int) -> String {
    String(repeating: piece, count: count)
  }

  /// The shapes of pathological input, built on demand so test names stay short.
  enum DeepInput: String, CaseIterable, CustomTestStringConvertible {
    case parentheses = "100,000 nested parentheses"
    case unaryOperators = "100,000 stacked unary operators"
    case ifs = "50,000 nested ifs"
    case calls = "100,000 nested calls"

    var testDescription: String { rawValue }

    var text: String {
      switch self {
      case .parentheses: repeated("(", 100_000) + "1" + repeated(")", 100_000)
      case .unaryOperators: repeated("-", 100_000) + "1"
      case .ifs: repeated("if 1 then ", 50_000) + "1" + repeated(" else 0", 50_000)
      case .calls: "def f(x) x\n" + repeated("f(", 100_000) + "1" + repeated(")", 100_000)
      }
    }
  }

  @Test("pathological nesting ends in a diagnostic", arguments: DeepInput.allCases)
  func deepNesting(input: DeepInput) {
    let result = analyze(SourceFile(name: "t", text: input.text))
    #expect(result.diagnostics.all.map(\.message) == [.nestingTooDeep(limit: Parser.defaultNestingLimit)])
  }

  @Test func longOperatorChainsParseCorrectly() throws {
    let text = "1" + Self.repeated(" + 1", 199_999)
    let result = analyze(SourceFile(name: "t", text: text))
    #expect(!result.diagnostics.hasErrors)
    guard case .expression(let root)? = result.program.tree.items.first else {
      Issue.record("no expression")
      return
    }
    #expect(result.program.tree.leftSpine(of: root).count == 199_999)
    // Printing it must not recurse either.
    #expect(ASTDump.render(result.program.tree).contains("deeper levels not shown"))
  }

  @Test func nestingJustUnderTheLimitIsAccepted() {
    let depth = Parser.defaultNestingLimit - 10
    let text = Self.repeated("(", depth) + "1" + Self.repeated(")", depth)
    #expect(!analyze(SourceFile(name: "t", text: text)).diagnostics.hasErrors)
  }

  static let seedProgram = """
    # Mandelbrot, from the tutorial.
    def unary!(v) if v then 0 else 1;
    def unary-(v) 0-v;
    def binary> 10 (LHS RHS) RHS < LHS;
    def binary| 5 (LHS RHS) if LHS then 1 else if RHS then 1 else 0;
    def binary& 6 (LHS RHS) if !LHS then 0 else !!RHS;
    def binary = 9 (LHS RHS) !(LHS < RHS | LHS > RHS);
    def binary : 1 (x y) y;
    extern putchard(char);
    def printdensity(d)
      if d > 8 then putchard(32) else if d > 4 then putchard(46) else putchard(43);
    def mandelconverger(real imag iters creal cimag)
      if iters > 255 | (real*real + imag*imag > 4) then iters
      else mandelconverger(real*real - imag*imag + creal, 2*real*imag + cimag, iters+1, creal, cimag);
    def fib(x) var a = 1, b = 1, c in (for i = 3, i < x in c = a + b : a = b : b = c) : b;
    fib(10);
    """

  /// Deterministic mutations (delete, duplicate, swap, insert a random byte) of a valid
  /// program: the front end must return, whatever it reports.
  @Test func randomMutationsNeverCrash() {
    var generator = SplitMix64(seed: 0x5EED)
    let base = Array(Self.seedProgram.utf8)
    let alphabet = Array("()+-*/<>!|&:=;,#.e0123456789 \n\tdefifthenelseforinvarxyz\u{0}\u{FF}".utf8)
    for _ in 0..<400 {
      var bytes = base
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        let position = Int.random(in: 0..<max(1, bytes.count), using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !bytes.isEmpty: bytes.remove(at: position)
        case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
        case 2 where position + 8 < bytes.count: bytes.insert(contentsOf: bytes[position..<(position + 8)], at: position)
        default:
          let other = Int.random(in: 0..<max(1, bytes.count), using: &generator)
          if position < bytes.count && other < bytes.count { bytes.swapAt(position, other) }
        }
      }
      let result = analyze(SourceFile(name: "m", bytes: bytes))
      _ = ASTDump.render(result.program.tree)
      for diagnostic in result.diagnostics.all {
        #expect(diagnostic.range.start <= bytes.count)
        _ = DiagnosticRenderer(useColor: false).render(diagnostic)
      }
    }
  }
}
