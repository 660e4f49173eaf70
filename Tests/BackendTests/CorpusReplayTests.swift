import Foundation
import KaleidoscopeBackend
import KaleidoscopeFrontend
import Testing

/// Replays the IR-generation fuzzer's corpus (fuzz/corpus/irgen): every input the front end
/// accepts must compile to IR that LLVM's verifier accepts, with and without debug
/// information, under both loop semantics.
@Suite("IR generation corpus")
struct CorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fuzz/corpus/irgen")

  static func inputs() -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.sorted().map { corpus.appendingPathComponent($0) }
  }

  @Test func corpusIsPresent() {
    #expect(Self.inputs().count >= 20)
  }

  @Test func everyAcceptedInputCompilesToVerifiedIR() throws {
    let machine = try TargetMachine(optimization: .none)
    var accepted = 0
    for url in Self.inputs() {
      let bytes = try [UInt8](Data(contentsOf: url))
      let result = LargeStack.run { Frontend.check(SourceFile(name: url.lastPathComponent, bytes: bytes)) }
      guard !result.diagnostics.hasErrors else { continue }
      accepted += 1
      for forSemantics in ForSemantics.allCases {
        for debugInfo in [false, true] {
          let options = CompileOptions(optimization: .none, forSemantics: forSemantics, debugInfo: debugInfo)
          #expect(throws: Never.self, "\(url.lastPathComponent) \(forSemantics) debug: \(debugInfo)") {
            try LargeStack.run { () throws in
              _ = try Pipeline.module(
                for: result.program, in: Context(), for: machine, options: options, selection: .all, withMain: true)
            }
          }
        }
      }
    }
    #expect(accepted > 0)
  }
}
