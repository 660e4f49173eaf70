import Foundation
import Testing

@testable import KaleidoscopeFrontend

/// Replays the front-end fuzzer's corpus (fuzz/corpus/frontend) and the regression inputs
/// the fuzzers found (Tests/FrontendTests/Regressions): the front end, the diagnostic
/// renderer and the printers must handle each without crashing, and every diagnostic
/// must point into the input. Checking without keeping the program (what `check` does) must
/// report exactly what checking with it reports.
@Suite("Front-end corpus")
struct FrontendCorpusReplayTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func inputs(_ directory: String) -> [URL] {
    let url = root.appendingPathComponent(directory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.sorted().map { url.appendingPathComponent($0) }
  }

  @Test func corpusIsPresent() {
    #expect(Self.inputs("fuzz/corpus/frontend").count >= 20)
  }

  @Test(arguments: [
    "fuzz/corpus/frontend", "Tests/FrontendTests/Regressions", "Tests/EndToEndTests/Programs",
    "Tests/EndToEndTests/Diagnostics",
  ])
  func replay(directory: String) throws {
    // A folder that went missing would replay nothing and pass.
    #expect(Self.inputs(directory).count >= 1, "\(directory) is empty or missing")
    for url in Self.inputs(directory) {
      let bytes = try [UInt8](Data(contentsOf: url))
      LargeStack.run {
        let file = SourceFile(name: "input.ks", bytes: bytes)
        let result = Frontend.check(file)
        let renderer = DiagnosticRenderer(useColor: false)
        for diagnostic in result.diagnostics.all {
          #expect(renderer.render(diagnostic).hasPrefix("input.ks:"), "\(url.lastPathComponent)")
          #expect(diagnostic.range.end <= bytes.count, "\(url.lastPathComponent)")
        }
        let diagnosticsOnly = Frontend.check(file, keeping: .diagnostics).diagnostics
        #expect(
          diagnosticsOnly.sorted.map(renderer.render) == result.diagnostics.sorted.map(renderer.render),
          "\(url.lastPathComponent)")
        _ = ASTDump.render(result.program.tree)
        _ = ASTTreeDrawing.render(result.program.tree)
        _ = TokenListing.render(Lexer.tokenize(file), in: file)
      }
    }
  }
}
