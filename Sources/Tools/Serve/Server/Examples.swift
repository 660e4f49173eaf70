import Foundation

/// The repository's example programs, for the page's menu: from `--examples`, else the
/// installed copy (`../share/kaleidoscope/examples` beside the program), else the checkout
/// this program was built from.
enum Examples {
  static func load(from folder: String?) -> [ExampleEntry] {
    let program = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let installed = program.deletingLastPathComponent().appendingPathComponent("../share/kaleidoscope/examples").path
    let checkout = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../../examples").standardized.path
    let candidates = [folder, installed, checkout].compactMap { $0 }
    guard let root = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return [] }
    let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
      .filter { $0.hasSuffix(".ks") }.sorted()
    return files.compactMap { name in
      guard let source = try? String(contentsOfFile: root + "/" + name, encoding: .utf8) else { return nil }
      return ExampleEntry(name: String(name.dropLast(3)), source: source)
    }
  }
}
