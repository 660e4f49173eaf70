import Foundation
import Testing

@testable import KaleidoscopePlayground

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
    let reply = try HTTPClient.send(
      "GET", "/api/examples", port: server.port, headers: ["X-Request-Id": "trace-42.a_b"])
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
    #expect(line["path"] as? String == "/api/examples")
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

/// Whose address counts for the rate limit: `X-Forwarded-For` only from a trusted proxy.
@Suite("Client addresses")
struct ClientAddressTests {
  @Test(
    arguments: [
      // (peer, X-Forwarded-For, trusted, client)
      ("10.0.0.9", "1.2.3.4", [], "10.0.0.9"),  // not a trusted proxy: its header is ignored
      ("10.0.0.9", nil, ["10.0.0.9"], "10.0.0.9"),  // a trusted proxy that names nobody
      ("10.0.0.9", "1.2.3.4", ["10.0.0.9"], "1.2.3.4"),
      ("10.0.0.9", "6.6.6.6, 5.5.5.5", ["10.0.0.9"], "5.5.5.5"),  // the client's own claim is not believed
      ("10.0.0.9", "1.2.3.4, 10.0.0.8", ["10.0.0.9", "10.0.0.8"], "1.2.3.4"),  // two proxies
      ("10.0.0.9", " , 10.0.0.8", ["10.0.0.9", "10.0.0.8"], "10.0.0.9"),  // only proxies named
    ] as [(String, String?, [String], String)])
  func resolve(peer: String, forwardedFor: String?, trusted: [String], client: String) {
    #expect(ClientAddress.resolve(peer: peer, forwardedFor: forwardedFor, trusted: Set(trusted)) == client)
  }

  /// Behind a trusted proxy each forwarded client has a bucket of its own; without the
  /// option, the header changes nothing.
  @Test func theRateLimitFollowsForwardedClientsOnlyBehindATrustedProxy() throws {
    let trusting = try PlaygroundServer(["--rate-limit", "2", "--trusted-proxy", "127.0.0.1"])
    func status(_ server: PlaygroundServer, _ forwarded: String) throws -> Int {
      let body = try JSONSerialization.data(withJSONObject: ["source": "1\n", "view": "tokens"])
      return try HTTPClient.send(
        "POST", "/api/view", port: server.port, body: body, headers: ["X-Forwarded-For": forwarded]
      ).status
    }
    #expect(try [status(trusting, "10.0.0.1"), status(trusting, "10.0.0.1"), status(trusting, "10.0.0.1")] == [200, 200, 429])
    #expect(try status(trusting, "10.0.0.2") == 200)
    let plain = try PlaygroundServer(["--rate-limit", "2"])
    #expect(try [status(plain, "10.0.0.1"), status(plain, "10.0.0.2"), status(plain, "10.0.0.3")] == [200, 200, 429])
  }
}

/// The result cache (SPEC §9): a repeated run or view is answered from it, from memory or
/// from the store, with `X-Cache` saying which.
@Suite("Result cache")
struct ResultCacheTests {
  static func send(_ server: PlaygroundServer, _ path: String, _ body: [String: Any]) throws -> HTTPClient.Reply {
    try server.post(path, body)
  }

  @Test func aRepeatedRunIsAHitWithTheSameAnswer() throws {
    let server = try PlaygroundServer()
    let request: [String: Any] = ["source": "extern readd()\nreadd() * 2\n", "stdin": "21"]
    let first = try Self.send(server, "/api/run", request)
    let second = try Self.send(server, "/api/run", request)
    #expect(first.headers["x-cache"] == "miss")
    #expect(second.headers["x-cache"] == "hit")
    #expect(try second.json()["stdout"] as? String == "42\n")
    #expect(try first.json()["stdout"] as? String == "42\n")
    // Another input is another request.
    #expect(try Self.send(server, "/api/run", request.merging(["stdin": "1"]) { _, new in new }).headers["x-cache"] == "miss")
  }

  @Test(arguments: ["tokens", "ir", "cfg"])
  func aRepeatedViewIsAHit(view: String) throws {
    let server = try PlaygroundServer()
    let request: [String: Any] = ["source": "def f(x) if x < 1 then 0 else 1\nf(2)\n", "view": view]
    let first = try Self.send(server, "/api/view", request)
    let second = try Self.send(server, "/api/view", request)
    #expect(first.headers["x-cache"] == "miss")
    #expect(second.headers["x-cache"] == "hit")
    #expect(second.text == first.text)
  }

  /// A run that meets a limit meets it again: its answer is cached too.
  @Test func aRunStoppedByALimitIsCached() throws {
    let server = try PlaygroundServer()
    let request: [String: Any] = ["source": "for i = 0, 1 in 0\n"]
    let first = try Self.send(server, "/api/run", request)
    #expect(try first.json()["timedOut"] as? Bool == true)
    let again = try Self.send(server, "/api/run", request)
    #expect(again.headers["x-cache"] == "hit")
    #expect(try again.json()["timedOut"] as? Bool == true)
  }

  /// The store keeps answers across restarts of the server that computed them.
  @Test func theStoreKeepsAnswersAcrossARestart() throws {
    let database = NSTemporaryDirectory() + "ks-cache-\(getpid())-\(UUID().uuidString).sqlite"
    defer { try? FileManager.default.removeItem(atPath: database) }
    let request: [String: Any] = ["source": "6 * 7\n"]
    let first = try PlaygroundServer(database: database)
    #expect(try Self.send(first, "/api/run", request).headers["x-cache"] == "miss")
    // The store's copy is written in the background.
    usleep(300_000)
    #expect(first.stop() == 0)
    let second = try PlaygroundServer(database: database)
    let reply = try Self.send(second, "/api/run", request)
    #expect(reply.headers["x-cache"] == "hit")
    #expect(try reply.json()["stdout"] as? String == "42\n")
  }
}

/// `/metrics` (SPEC §9): Prometheus's text format, and counters that move with the work.
@Suite("Metrics")
struct MetricsTests {
  /// The value of the series `name` (with its labels, as the text writes them), or 0.
  static func value(_ text: String, _ series: String) -> Double {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
      return Double(line.dropFirst(series.count + 1)) ?? -1
    }
    return 0
  }

  @Test func theCountersMoveWithRunsAndTheCache() throws {
    let server = try PlaygroundServer()
    let before = try server.get("/metrics")
    #expect(before.status == 200)
    #expect(before.headers["content-type"]?.hasPrefix("text/plain") == true)
    let request: [String: Any] = ["source": "6 * 7\n"]
    #expect(try server.post("/api/run", request).status == 200)
    #expect(try server.post("/api/run", request).status == 200)
    #expect(try server.post("/api/view", ["source": "1\n", "view": "pixels"]).status == 400)
    let text = try server.get("/metrics").text
    let runs = #"kaleidoscope_http_requests_total{route="/api/run",status="200"}"#
    let refused = #"kaleidoscope_http_requests_total{route="/api/view",status="400"}"#
    #expect(Self.value(text, runs) == 2)
    #expect(Self.value(text, refused) == 1)
    #expect(Self.value(text, #"kaleidoscope_cache_requests_total{result="miss"}"#) == 1)
    #expect(Self.value(text, #"kaleidoscope_cache_requests_total{result="hit"}"#) == 1)
    #expect(Self.value(text, #"kaleidoscope_sandbox_outcomes_total{outcome="ok"}"#) == 1)
    #expect(Self.value(text, "kaleidoscope_run_duration_seconds_count") == 1)
    #expect(text.contains("kaleidoscope_queue_depth 0"))
    // The earlier scrape is counted too; a snippet's id does not make a series of its own.
    _ = try server.get("/s/ABCDEFGHIJ")
    let later = try server.get("/metrics").text
    #expect(Self.value(later, #"kaleidoscope_http_requests_total{route="/metrics",status="200"}"#) >= 2)
    #expect(Self.value(later, #"kaleidoscope_http_requests_total{route="/s/:id",status="200"}"#) == 1)
  }
}
