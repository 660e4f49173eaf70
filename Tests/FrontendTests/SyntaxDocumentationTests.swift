import Foundation
import KaleidoscopeFrontend
import Testing

/// Every kind of node `ast` prints for the repository's programs, and every keyword, has
/// the documentation the playground shows (its tutorial chapter).
@Suite("Syntax documentation")
struct SyntaxDocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func everyNodeKindOfTheRepositorysProgramsIsDocumented() throws {
    var kinds: Set<String> = []
    for folder in ["examples", "Tests/EndToEndTests/Programs"] {
      let directory = Self.root.appendingPathComponent(folder).path
      for path in try FileManager.default.subpathsOfDirectory(atPath: directory) where path.hasSuffix(".ks") {
        let file = try SourceReader.load(path: directory + "/" + path)
        let dump = LargeStack.run { ASTDump.render(Parser.parse(file).tree) }
        for line in dump.split(separator: "\n") {
          var label = line.drop { "|`- ".contains($0) }
          if let role = label.firstRange(of: ": "), label[..<role.lowerBound].allSatisfy(\.isLetter) {
            label = label[role.upperBound...]
          }
          kinds.insert(String(label.prefix { $0.isLetter }))
        }
      }
    }
    kinds.remove("Error")
    #expect(kinds.count >= 18)
    #expect(kinds.subtracting(SyntaxDocumentation.nodeKinds.keys).sorted() == [])
  }

  @Test func everyKeywordLinksAChapterOfTheTutorial() {
    for keyword in Keyword.allCases {
      let documentation = keyword.documentation
      #expect(documentation.chapter.url.hasPrefix("https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl"))
      #expect(documentation.summary.contains(keyword.spelling), "\(keyword)")
    }
  }
}
