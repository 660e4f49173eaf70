import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `kaleidoscope serve` started for one test, on a free port, with its own SQLite file;
/// stopped with SIGTERM, as a service manager would.
final class PlaygroundServer {
  let process = Process()
  let port: Int
  let directory: String
  let log: String

  /// The tool beside the test bundle in `.build/<configuration>/`.
  static let tool = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("kaleidoscope").path

  init(_ options: [String] = [], database: String? = nil) throws {
    directory = NSTemporaryDirectory() + "ks-serve-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    log = directory + "/server.log"
    FileManager.default.createFile(atPath: log, contents: nil)
    process.executableURL = URL(fileURLWithPath: Self.tool)
    process.arguments = ["serve", "--port", "0", "--database", database ?? directory + "/snippets.sqlite"] + options
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    port = try Self.waitForPort(in: log, process: process)
  }

  /// The port from the line `listening on http://HOST:PORT/`.
  private static func waitForPort(in log: String, process: Process) throws -> Int {
    for _ in 0..<300 {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if let range = text.range(of: "listening on http://127.0.0.1:") {
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        if let port = Int(digits) { return port }
      }
      guard process.isRunning else { throw HTTPClient.Failure(description: "the server stopped: \(text)") }
      usleep(50_000)
    }
    throw HTTPClient.Failure(description: "the server did not start")
  }

  /// Stops the server with SIGTERM and returns its exit status.
  @discardableResult
  func stop() -> Int32 {
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
    return process.terminationStatus
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  func post(_ path: String, _ json: [String: Any], from source: String = "127.0.0.1") throws -> HTTPClient.Reply {
    try HTTPClient.post(path, port: port, json: json, from: source)
  }

  func get(_ path: String) throws -> HTTPClient.Reply {
    try HTTPClient.send("GET", path, port: port)
  }

  /// What the server wrote to standard error.
  var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
}
