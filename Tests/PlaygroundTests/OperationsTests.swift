import Foundation
import Testing

/// What an operator needs of a server (SPEC §9): readiness, request ids in answers and in
/// JSON-line logs, and a process that a signal stops, port and all.
@Suite("Playground operations")
struct OperationsTests {
  @Test func readyWhenItsStoreAnswers() throws {
    let server = try PlaygroundServer()
    let reply = try server.get("/readyz")
    #expect(reply.status == 200)
    #expect(reply.text == "ready\n")
  }

  @Test func aRequestIdComesBackAndIsLoggedAsJSON() throws {
    let server = try PlaygroundServer()
    let reply = try HTTPClient.send("GET", "/healthz", port: server.port, headers: ["X-Request-Id": "trace-42.a_b"])
    #expect(reply.headers["x-request-id"] == "trace-42.a_b")
    // The access log line is written once the answer is sent.
    var entry: [String: Any]?
    for _ in 0..<100 where entry == nil {
      let log = (try? String(contentsOfFile: server.log, encoding: .utf8)) ?? ""
      entry = log.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      }.first { $0["request_id"] as? String == "trace-42.a_b" }
      if entry == nil { usleep(20_000) }
    }
    let line = try #require(entry)
    #expect(line["path"] as? String == "/healthz")
    #expect(line["status"] as? String == "200")
    #expect(line["level"] as? String == "info")
    #expect(line["time"] != nil && line["ms"] != nil)
  }

  @Test(arguments: ["", "has space", String(repeating: "x", count: 129), "semi;colon"])
  func anUnusableRequestIdIsReplaced(given: String) throws {
    let server = try PlaygroundServer()
    let headers = given.isEmpty ? [:] : ["X-Request-Id": given]
    let reply = try HTTPClient.send("GET", "/healthz", port: server.port, headers: headers)
    let id = try #require(reply.headers["x-request-id"])
    #expect(id.count == 16 && id.allSatisfy(\.isHexDigit), "\(id)")
  }

  /// `kaleidoscope serve` is the server itself (it execs it): killing the PID a user sees
  /// stops the server and frees its port, with SIGTERM as with SIGKILL.
  @Test(arguments: [SIGTERM, SIGKILL])
  func aSignalToTheProcessAUserSeesFreesThePort(signal: Int32) throws {
    let server = try PlaygroundServer()
    #expect(try server.get("/healthz").status == 200)
    kill(server.process.processIdentifier, signal)
    server.process.waitUntilExit()
    #expect(throws: (any Error).self) { try server.get("/healthz") }
  }
}
