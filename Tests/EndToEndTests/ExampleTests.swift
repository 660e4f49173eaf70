import Foundation
import Testing

/// Every program in `examples/` runs as a user would run it, with the JIT and with the
/// interpreter, and prints `Examples/NAME.out` (reading `Examples/NAME.in` if present).
@Suite("Examples")
struct ExampleTests {
  static let root = TestData.directory.deletingLastPathComponent().deletingLastPathComponent()

  /// The examples, as paths relative to the repository.
  static let examples: [String] = {
    let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("examples").path)
    let paths = (enumerator?.allObjects as? [String]) ?? []
    return paths.filter { $0.hasSuffix(".ks") }.map { "examples/\($0)" }.sorted()
  }()

  @Test func everyExampleHasItsExpectedOutput() {
    #expect(Self.examples.count >= 8)
    for example in Self.examples {
      #expect(FileManager.default.fileExists(atPath: Self.expected(example, "out")), "\(example) has no expected output")
    }
  }

  static func expected(_ example: String, _ suffix: String) -> String {
    let name = URL(fileURLWithPath: example).deletingPathExtension().lastPathComponent
    return TestData.path("Examples", "\(name).\(suffix)")
  }

  @Test(arguments: examples, [["run"], ["run", "--tier", "interp"]])
  func example(_ example: String, command: [String]) throws {
    let input = (try? String(contentsOfFile: Self.expected(example, "in"), encoding: .utf8)) ?? ""
    let output = try Tool.run(command + [example], stdin: input, in: Self.root.path)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout == (try String(contentsOfFile: Self.expected(example, "out"), encoding: .utf8)))
  }
}
