import Foundation
import KaleidoscopeFormat
import TestSupport
import Testing

@testable import KaleidoscopeFrontend

/// `kaleidoscope fmt` never changes what a program means, and formatting twice changes
/// nothing: checked on every program of the repository that parses, and on generated ones.
@Suite("Formatter")
struct FormatterTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The repository's programs (its examples, benchmarks and test programs, but not the
  /// diagnostics tests' and regressions' deliberately broken ones), which must all format.
  static let programs = files(under: ["examples", "benchmarks", "Tests"]) {
    $0.hasSuffix(".ks") && !$0.contains("Diagnostics/") && !$0.contains("Regressions/")
  }

  /// The fuzzers' corpora: the IR generator's are programs the checker accepted, the front
  /// end's mostly do not parse; those that parse are formatted.
  static let corpus = files(under: ["fuzz/corpus/irgen", "fuzz/corpus/frontend"]) { _ in true }

  static func files(under directories: [String], where include: (String) -> Bool) -> [String] {
    var paths: [String] = []
    for directory in directories {
      let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(directory).path)
      for case let path as String in enumerator?.allObjects ?? [] where include("\(directory)/\(path)") {
        paths.append("\(directory)/\(path)")
      }
    }
    return paths.sorted()
  }

  static func format(_ text: [UInt8], name: String = "t.ks") -> [UInt8]? {
    guard case .formatted(let output) = Formatter.format(SourceFile(name: name, bytes: text)) else { return nil }
    return output
  }

  /// Checks that `text`, formatted, has the same tree and formats to itself.
  static func expectMeaningKept(_ text: [UInt8], _ name: String) {
    guard let once = format(text, name: name) else { return }  // syntax errors: not formatted
    #expect(TreeShape.of(once) == TreeShape.of(text), "\(name): formatting changed the tree")
    #expect(format(once, name: name) == once, "\(name): formatting again changed the text")
  }

  @Test func everyProgramOfTheRepository() throws {
    #expect(Self.programs.count > 50)
    for path in Self.programs {
      let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(path)))
      #expect(Self.format(bytes) != nil, "\(path) did not format")
      Self.expectMeaningKept(bytes, path)
    }
  }

  @Test func everyCorpusInputThatParses() throws {
    var formatted = 0
    for path in Self.corpus {
      let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(path)))
      if Self.format(bytes) != nil { formatted += 1 }
      Self.expectMeaningKept(bytes, path)
    }
    #expect(formatted > 100)
  }

  @Test(arguments: 1...64 as ClosedRange<UInt64>)
  func generatedPrograms(seed: UInt64) {
    var generator = ProgramGenerator(seed: seed)
    let program = Array(generator.program().utf8)
    #expect(Self.format(program) != nil, "seed \(seed) did not format")
    Self.expectMeaningKept(program, "seed \(seed)")
  }

  /// A comment after any token survives formatting, in its place among the tokens: the
  /// repository's programs with a comment after every third token keep their tree and
  /// every comment, in order, and format to themselves.
  @Test func commentsAfterAnyToken() throws {
    for path in Self.programs.prefix(40) {
      let file = SourceFile(name: path, bytes: try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(path))))
      var text: [UInt8] = []
      var position = 0
      var comments: [String] = []
      for (index, token) in Lexer.tokenize(file).enumerated() where index % 3 == 2 {
        text += file.bytes[position..<token.range.end]
        position = token.range.end
        comments.append("# c\(index)")
        text += Array("  \(comments.last!)\n".utf8)
      }
      text += file.bytes[position...]
      guard let once = Self.format(text, name: path) else {
        Issue.record("\(path) with comments did not format")
        continue
      }
      let kept = String(decoding: once, as: UTF8.self).split(separator: "\n").compactMap { line in
        line.firstRange(of: "# c").map { String(line[$0.lowerBound...]) }
      }
      #expect(kept.filter { $0.hasPrefix("# c") && Int($0.dropFirst(3)) != nil } == comments, "\(path): comments lost or moved")
      Self.expectMeaningKept(text, path)
    }
  }

  /// Tokens the layout puts side by side are never read back as one (`.` then `5`).
  @Test(arguments: ["x\n. 1\n", "def unary.(v) v\n. .5\n", "y;\n. 2 + . 3\n"])
  func tokensStayApart(text: String) {
    #expect(Self.format(Array(text.utf8)) != nil)
    Self.expectMeaningKept(Array(text.utf8), text)
  }

  /// `Style/NAME.ks` formats to `Style/NAME.formatted`: the rules of docs/STYLE.md, one
  /// file each.
  @Test(arguments: styleCases)
  func style(name: String) throws {
    let directory = Self.root.appendingPathComponent("Tests/FormatTests/Style")
    let input = try [UInt8](Data(contentsOf: directory.appendingPathComponent("\(name).ks")))
    let expected = try String(contentsOf: directory.appendingPathComponent("\(name).formatted"), encoding: .utf8)
    let output = try #require(Self.format(input))
    #expect(String(decoding: output, as: UTF8.self) == expected)
    for line in expected.split(separator: "\n") { #expect(line.utf8.count <= Formatter.lineWidth, "\(name): \(line)") }
  }

  static let styleCases: [String] = {
    let directory = root.appendingPathComponent("Tests/FormatTests/Style")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".ks") }.map { String($0.dropLast(3)) }.sorted()
  }()

  /// The style cases are there: a missing folder would make the style test pass with none.
  @Test func theStyleCasesArePresent() {
    #expect(Self.styleCases.count >= 6)
  }

  @Test func aFileWithSyntaxErrorsIsNotFormatted() {
    guard case .syntaxErrors(let diagnostics) = Formatter.format(SourceFile(name: "t.ks", text: "def f(x) (x +\n")) else {
      Issue.record("formatted a file with a syntax error")
      return
    }
    #expect(diagnostics.hasErrors)
  }

  /// A token longer than the formatter's tokens record (16 bits of length) is written
  /// whole, and what follows it, comments included, keeps its place.
  @Test(arguments: [65_534, 65_535, 70_000])
  func longTokens(length: Int) throws {
    let text = String(repeating: "a", count: length)
    let source = "var s[] = \"\(text)\"  # after the string\n\(text)b + 1;;\nlen(s)\n"
    let expected = "var s[] =\n  \"\(text)\"  # after the string\n\(text)b +\n  1\nlen(s)\n"
    let output = try #require(Self.format(Array(source.utf8)))
    #expect(String(decoding: output, as: UTF8.self) == expected)
  }

  @Test func emptyAndCommentOnlyFiles() {
    #expect(Self.format([]) == [])
    #expect(Self.format(Array("  # only a comment  \n\n".utf8)) == Array("# only a comment\n".utf8))
  }
}

/// The shape of a program's syntax tree, without positions: what formatting must keep.
enum TreeShape {
  static func of(_ text: [UInt8]) -> String {
    let file = SourceFile(name: "t.ks", bytes: text)
    let tree = LargeStack.run { Parser.parse(file) }.tree
    var out = ""
    for index in tree.items.indices { describe(SyntaxNode(.item(index)), in: tree, into: &out) }
    return out
  }

  private static func describe(_ node: SyntaxNode, in tree: SyntaxTree, into out: inout String) {
    out += "("
    if let role = node.role { out += role + ":" }
    switch node.reference {
    case .item(let index):
      switch tree.items[index] {
      case .definition(let definition): out += "def " + tree.describe(definition.prototype)
      case .external(let prototype): out += "extern " + tree.describe(prototype)
      case .expression: out += "expr"
      case .globals: out += "globals"
      case .brokenDefinition(let prototype): out += "broken " + tree.describe(prototype)
      }
    case .binding(let binding): out += "binding \(tree.text(binding.name)) \(binding.kind)"
    case .loopVariable(let loop): out += "loop \(tree.text(loop.variable))"
    case .expr(let id):
      switch tree[id] {
      case .number(let value): out += "\(value.bitPattern)"
      case .string(let index): out += "\(tree.string(index))"
      default: out += tree.spelling(of: id)
      }
    }
    for child in tree.children(of: node) { describe(child, in: tree, into: &out) }
    out += ")"
  }
}
