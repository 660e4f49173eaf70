import Foundation
import Testing

@testable import KaleidoscopeFrontend

/// The lexer's tokens, their positions and its errors, from text.
@Suite("Lexer")
struct LexerTests {
  private func kinds(_ text: String) -> [TokenKind] {
    Lexer.tokenize(SourceFile(name: "t", text: text)).map(\.kind)
  }

  @Test(
    "token kinds",
    arguments: [
      (Keyword.allCases.map(\.spelling).joined(separator: " "), Keyword.allCases.map(TokenKind.keyword)),
      ("foo _bar x1 defx", [.identifier, .identifier, .identifier, .identifier]),
      // Near misses: a keyword's length, first and last letters, but not its spelling.
      ("dxf iff i forr vbr bnnary ef In", Array(repeating: .identifier, count: 8)),
      ("1 1.5 .5 2. 1e9 2.5E-3 1e+2", [.number, .number, .number, .number, .number, .number, .number]),
      ("( ) [ ] , ;", [.leftParen, .rightParen, .leftBracket, .rightBracket, .comma, .semicolon]),
      ("\"\" \"a b\" \"\\n\\t\\\\\\\"\\0\\x7f\" \"é\"", [.string, .string, .string, .string]),
      ("+ - * / < > ! | & : = ~ % ^ @ $ ? \\ . `", Array(repeating: .operatorChar, count: 20)),
      ("len(a)", [.keyword(.len), .leftParen, .identifier, .rightParen]),
      ("x # a comment ( ,\ny", [.identifier, .identifier]),
      ("a.b", [.identifier, .operatorChar, .identifier]),
    ] as [(String, [TokenKind])])
  func tokenKinds(text: String, expected: [TokenKind]) {
    #expect(kinds(text) == expected + [.endOfFile])
  }

  @Test(
    "lexical errors are tokens, never traps",
    arguments: [
      ("1.2.3", LexError.malformedNumber),
      ("1e", .missingExponentDigits),
      ("2.5e+", .missingExponentDigits),
      ("é", .nonASCIICharacter(0xE9)),
      ("\u{0}", .nulCharacter),
      ("\u{7}", .controlCharacter(7)),
      ("\"no end", .unterminatedString),
      ("\"line\nbreak\"", .unterminatedString),
      ("\"\\q\"", .invalidEscape(UInt8(ascii: "q"))),
      ("\"\\x4\"", .invalidEscape(UInt8(ascii: "x"))),
    ])
  func lexicalErrors(text: String, error: LexError) {
    let tokens = Lexer.tokenize(SourceFile(name: "t", text: text))
    #expect(tokens.first?.kind == .invalid)
    #expect(tokens.first?.error == error)
    #expect(tokens.last?.kind == .endOfFile)
  }

  /// A NUL byte means the file is not text: nothing after it is lexed, so that a binary file
  /// gets a handful of errors, not one for nearly every byte.
  @Test func nulEndsTheInput() {
    let tokens = Lexer.tokenize(SourceFile(name: "t", text: "a\u{0}\u{7} b"))
    #expect(tokens.map(\.kind) == [.identifier, .invalid, .endOfFile])
    #expect(tokens[1].error == .nulCharacter)
    #expect(tokens[1].range == SourceRange(start: 1, end: 2))
  }

  /// libFuzzer's dictionary (fuzz/kaleidoscope.dict) steers mutations toward real tokens;
  /// it must name every keyword.
  @Test func fuzzDictionaryHasEveryKeyword() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let dictionary = try String(contentsOf: root.appendingPathComponent("fuzz/kaleidoscope.dict"), encoding: .utf8)
    let entries = Set(dictionary.split(separator: "\n").filter { $0.hasPrefix("\"") })
    for keyword in Keyword.allCases {
      #expect(entries.contains("\"\(keyword.spelling)\""), "fuzz/kaleidoscope.dict lacks \(keyword.spelling)")
    }
  }

  @Test func invalidUTF8IsReportedPerByte() {
    let tokens = Lexer.tokenize(SourceFile(name: "t", bytes: [0xFF, 0xC3, UInt8(ascii: "x")]))
    #expect(tokens.map(\.error) == [.invalidUTF8(0xFF), .invalidUTF8(0xC3), nil, nil])
  }

  @Test func rangesAreByteOffsetsAndLocationsAreComputedOnDemand() {
    let file = SourceFile(name: "t", text: "# é comment\n  foo(12)\n")
    let tokens = Lexer.tokenize(file)
    #expect(tokens[0].range == SourceRange(start: 15, end: 18))
    #expect(file.location(of: tokens[0].range.start) == SourceLocation(line: 2, column: 3))
    #expect(tokens[0].isAtStartOfLine)
    #expect(file.text(in: tokens[2].range) == "12")
    #expect(!tokens[2].isAtStartOfLine)
  }

  /// Some editors start a UTF-8 file with a byte-order mark; it is skipped, and columns on
  /// the first line count from after it, as the editor shows them.
  @Test func byteOrderMarkIsSkipped() {
    let file = SourceFile(name: "t", bytes: [0xEF, 0xBB, 0xBF] + Array("def f(abc) y".utf8))
    let tokens = Lexer.tokenize(file)
    #expect(tokens.first?.kind == .keyword(.def))
    #expect(tokens.first?.range.start == 3)
    #expect(file.location(of: 3) == SourceLocation(line: 1, column: 1))
    let diagnostics = analyze(file).diagnostics.sorted
    #expect(diagnostics.map(\.message) == [.unknownVariable("y")])
    #expect(
      DiagnosticRenderer(useColor: false).render(diagnostics[0])
        == "t:1:12: error: unknown variable 'y'\ndef f(abc) y\n           ^\n")
  }

  @Test func tokenListingShowsLocationCategoryAndText() {
    let file = SourceFile(name: "t", text: "def f(x)\n  x+1")
    let listing = TokenListing.render(Lexer.tokenize(file), in: file)
    #expect(
      listing == """
        1:1      keyword     def
        1:5      identifier  f
        1:6      punctuation (
        1:7      identifier  x
        1:8      punctuation )
        2:3      identifier  x
        2:4      operator    +
        2:5      number      1
        2:6      end

        """)
  }
}
