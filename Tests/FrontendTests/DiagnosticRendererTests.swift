import Testing

@testable import KaleidoscopeFrontend

/// The source line under a diagnostic and its marker (`SourceLineDisplay`): what would not
/// print safely is spelled out, as clang does, the marker stays under the column, and a line
/// too long to read is cut to the part around the caret.
@Suite("Diagnostic source lines")
struct DiagnosticRendererTests {
  /// A case: a one-line program (bytes), the first diagnostic's source line and marker.
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let bytes: [UInt8]
    let line: String
    let marker: String
  }

  static let ones = Array(repeating: "1", count: 120).joined(separator: " + ")
  static let long = "var a = " + ones + " + y + " + ones

  static let cases: [Case] = [
    Case(
      testDescription: "a control character", bytes: Array("def f(x) x +\u{1} 1".utf8),
      line: "def f(x) x +<U+0001> 1", marker: "            ^~~~~~~~"),
    Case(
      testDescription: "a byte that is not UTF-8", bytes: Array("def f(x) x + ".utf8) + [0xFF] + Array(" 1".utf8),
      line: "def f(x) x + <FF> 1", marker: "             ^~~~"),
    Case(
      testDescription: "tabs kept, a non-ASCII character one place", bytes: Array("def f(x)\tx +\té 1".utf8),
      line: "def f(x)\tx +\té 1", marker: "        \t   \t^"),
    Case(
      testDescription: "a range underlined", bytes: Array("def f(x) x + yy\n".utf8),
      line: "def f(x) x + yy", marker: "             ^~"),
    Case(
      testDescription: "a long line cut on both sides", bytes: Array(long.utf8),
      line: "..." + String(long.dropFirst(long.count - ones.count - 4 - 60).prefix(160)) + "...",
      marker: String(repeating: " ", count: 63) + "^"),
  ]

  @Test(arguments: cases)
  func sourceLine(_ testCase: Case) throws {
    let file = SourceFile(name: "t", bytes: testCase.bytes)
    let diagnostic = try #require(analyze(file).diagnostics.sorted.first)
    let rendered = DiagnosticRenderer(useColor: false).render(diagnostic).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rendered.count >= 3)
    #expect(rendered[1] == testCase.line)
    #expect(rendered[2] == testCase.marker)
  }

  /// A binary file (an ELF header, then NUL bytes) gets a handful of short errors.
  @Test func binaryFile() {
    let bytes: [UInt8] = [0x7F] + Array("ELF".utf8) + [2, 1, 1, 0] + (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let diagnostics = analyze(SourceFile(name: "t", bytes: bytes)).diagnostics.sorted
    let text = diagnostics.map(DiagnosticRenderer(useColor: false).render).joined()
    #expect(diagnostics.count == 6)
    #expect(text.utf8.count < 2_000)
  }
}
