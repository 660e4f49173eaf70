import Foundation
import KaleidoscopeBackend
import KaleidoscopeFrontend
import Testing

/// The page's explanations on hover (`Sources/Tools/Serve/Page/assets/explanations.json`)
/// have a line for every IR instruction and every machine instruction that the repository's
/// examples compile to, at every level, on each of the playground's targets.
@Suite("Explanation tables")
struct ExplanationTableTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func table() throws -> [String: [String: String]] {
    let url = root.appendingPathComponent("Sources/Tools/Serve/Page/assets/explanations.json")
    return try JSONDecoder().decode([String: [String: String]].self, from: Data(contentsOf: url))
  }

  static func examples() throws -> [CheckedProgram] {
    let folder = root.appendingPathComponent("examples")
    let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ks") }.sorted()
    return try paths.map { path in
      let result = Pipeline.check(try SourceReader.load(path: folder.appendingPathComponent(path).path))
      try #require(!result.diagnostics.hasErrors, "\(path)")
      return result.program
    }
  }

  static let targets = [
    ("x86-64", "x86_64-unknown-linux-gnu"), ("aarch64", "aarch64-unknown-linux-gnu"),
    ("riscv64", "riscv64-unknown-linux-gnu"), ("wasm32", "wasm32-unknown-unknown"),
  ]

  @Test(arguments: targets)
  func everyMachineInstructionOfTheExamplesIsExplained(target: (name: String, triple: String)) throws {
    let explained = try #require(try Self.table()[target.name])
    var seen: Set<String> = []
    for program in try Self.examples() {
      for level in OptimizationLevel.allCases {
        let assembly = try Pipeline.assembly(of: program, target: target.triple, options: CompileOptions(optimization: level))
        for line in assembly.split(separator: "\n") where line.hasPrefix("\t") {
          let mnemonic = line.dropFirst().prefix { !$0.isWhitespace }
          if let first = mnemonic.first, first.isLetter { seen.insert(String(mnemonic)) }
        }
      }
    }
    #expect(seen.count >= 30)
    #expect(seen.subtracting(explained.keys).sorted() == [])
  }

  @Test func everyIRInstructionOfTheExamplesIsExplained() throws {
    let explained = try #require(try Self.table()["ir"])
    var seen: Set<String> = []
    for program in try Self.examples() {
      for level in OptimizationLevel.allCases {
        let ir = try Pipeline.ir(of: program, options: CompileOptions(optimization: level))
        for line in ir.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
          var text = line.dropFirst(2)
          if text.hasPrefix("%"), let equals = text.firstRange(of: " = ") { text = text[equals.upperBound...] }
          seen.insert(String(text.prefix { !$0.isWhitespace }))
        }
      }
    }
    #expect(seen.count >= 20)
    #expect(seen.subtracting(explained.keys).sorted() == [])
  }
}
