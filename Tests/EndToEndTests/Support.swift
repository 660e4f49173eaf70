import Foundation
import Testing

/// Runs the built `kaleidoscope` binary, as a user would.
enum Tool {
  /// The test bundle sits next to the executable in `.build/<configuration>/`.
  static let executable: URL = {
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return bundle.deletingLastPathComponent().appendingPathComponent("kaleidoscope")
  }()

  /// What a run produced.
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs the tool with `arguments`, feeding `stdin`; colour is off as in CI logs.
  static func run(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:], in directory: String? = nil
  ) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env.merge(environment) { _, new in new }
    process.environment = env
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes concurrently so a large output cannot block the child.
    nonisolated(unsafe) var errorData = Data()
    let errorReader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
    errorReader.start()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorReader.isFinished { usleep(1000) }
    return Output(
      status: process.terminationStatus,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self))
  }
}

/// Test data next to the test sources.
enum TestData {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// The `.ks` files of a subdirectory, sorted, as names without the extension.
  static func programs(in subdirectory: String) -> [String] {
    let url = directory.appendingPathComponent(subdirectory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".ks") }.map { String($0.dropLast(3)) }.sorted()
  }

  static func path(_ subdirectory: String, _ name: String) -> String {
    directory.appendingPathComponent(subdirectory).appendingPathComponent(name).path
  }

  /// Compares `actual` with the golden file, or rewrites the file when
  /// `KALEIDOSCOPE_UPDATE_GOLDEN=1` (then review the diff before committing).
  static func expectMatchesGolden(_ actual: String, _ subdirectory: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let path = path(subdirectory, name)
    if ProcessInfo.processInfo.environment["KALEIDOSCOPE_UPDATE_GOLDEN"] == "1" {
      _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
      return
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
      Issue.record("missing golden file \(path); run with KALEIDOSCOPE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
      return
    }
    #expect(actual == expected, "\(name) differs from its golden file", sourceLocation: sourceLocation)
  }
}
