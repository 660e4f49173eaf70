import Foundation
import Synchronization
import Testing

/// The limits and status codes of SPEC §6: 413, 400, 429, 503, and a hostile crowd that
/// does not keep a normal user waiting.
@Suite("Playground limits")
struct LimitTests {
  @Test func aBodyOver64KiBIs413() throws {
    let server = try PlaygroundServer()
    let source = String(repeating: "# padding\n", count: 7000)
    let reply = try server.post("/api/run", ["source": source])
    #expect(reply.status == 413)
    #expect(try reply.json()["error"] as? String == "the body is larger than 64 KiB")
    #expect(try server.get("/healthz").status == 200)
  }

  @Test(arguments: [
    ("{\"source\": ", "the body is not valid JSON"), ("[1, 2]", "the body must be a JSON object"),
    ("{\"stdin\": \"\"}", "missing field 'source'"), ("{\"source\": 5}", "wrong type for 'source'"),
    ("{\"source\": \"1\", \"opt\": 7}", "'opt' must be 0 to 3"),
    ("{\"source\": \"1\", \"engine\": \"gpu\"}", "'engine' must be 'jit' or 'interp'"),
    ("{\"source\": \"1\", \"engine\": \"auto\"}", "'engine' must be 'jit' or 'interp'"),
    ("{\"source\": \"1\", \"forSemantics\": \"new\"}", "'forSemantics' must be 'current' or 'legacy'"),
  ])
  func malformedRunRequestsAre400(body: String, message: String) throws {
    let server = try PlaygroundServer()
    let reply = try HTTPClient.send("POST", "/api/run", port: server.port, body: Data(body.utf8))
    #expect(reply.status == 400)
    #expect(try reply.json()["error"] as? String == message)
  }

  @Test(arguments: [
    ("{\"source\": \"1\", \"view\": \"pixels\"}", "'view' must be one of 'tokens', 'ast', 'ir', 'asm', 'passes', 'cfg'"),
    (
      "{\"source\": \"1\", \"view\": \"asm\", \"target\": \"z80\"}",
      "'target' must be one of 'x86-64', 'aarch64', 'riscv64', 'wasm32', or a triple of one of them"
    ),
  ])
  func malformedViewRequestsAre400(body: String, message: String) throws {
    let server = try PlaygroundServer()
    let reply = try HTTPClient.send("POST", "/api/view", port: server.port, body: Data(body.utf8))
    #expect(reply.status == 400)
    #expect(try reply.json()["error"] as? String == message)
  }

  @Test func tooManyRequestsFromOneClientAre429() throws {
    let server = try PlaygroundServer(["--rate-limit", "3"])
    let statuses = try (0..<5).map { _ in try server.post("/api/share", ["source": "1"]).status }
    #expect(statuses == [201, 201, 201, 429, 429])
    let refused = try server.post("/api/share", ["source": "1"])
    #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
    // Another client is not affected.
    #expect(try server.post("/api/share", ["source": "1"], from: "127.0.0.2").status == 201)
  }

  @Test func aFullQueueIs503WithRetryAfter() throws {
    let server = try PlaygroundServer(["--workers", "1", "--queue", "0"])
    let port = server.port
    let busy = Background {
      try HTTPClient.post("/api/run", port: port, json: ["source": "def spin() for i = 0, 1 in 0\nspin()\n"])
    }
    // Wait until the first run holds the only worker.
    usleep(700_000)
    let refused = try HTTPClient.post("/api/run", port: port, json: ["source": "1"], from: "127.0.0.2")
    #expect(refused.status == 503)
    #expect(refused.headers["retry-after"] == "1")
    #expect(try busy.value().status == 200)
  }

  /// 24 hostile programs at once from one client (loops, recursion, a memory bomb, a
  /// flood, forbidden externs) while another client's small run is answered before the
  /// crowd's runs are done: one client may hold only half the workers.
  @Test func aHostileCrowdDoesNotStarveANormalUser() throws {
    let server = try PlaygroundServer(["--workers", "4"])
    let port = server.port
    let hostile = [
      "def spin() for i = 0, 1 in 0\nspin()\n", "def down(n) down(n + 1) + 1\ndown(0)\n",
      "var a[30000000], b[30000000]\nlen(a) + len(b)\n", "extern putchard(c)\ndef f() for i = 0, 1 in putchard(65)\nf()\n",
      "extern system(x)\nsystem(0)\n", "def spin() for i = 0, 1 in 0\nspin()\n",
    ]
    let answered = Counter()
    let crowd = (0..<24).map { index in
      Background {
        let status = try HTTPClient.post("/api/run", port: port, json: ["source": hostile[index % hostile.count]]).status
        if status == 200 { answered.increment() }
        return status
      }
    }
    // Let the crowd take its workers and fill its queue.
    usleep(700_000)
    let normal = try HTTPClient.post("/api/run", port: port, json: ["source": "6 * 7\n"], from: "127.0.0.2")
    let answeredBeforeNormal = answered.value
    #expect(try normal.json()["stdout"] as? String == "42\n")
    let statuses = try crowd.map { try $0.value() }
    #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
    // The normal run came back while hostile runs admitted before it were still going.
    #expect(answeredBeforeNormal < statuses.filter { $0 == 200 }.count, "\(answeredBeforeNormal) \(statuses)")
    #expect(statuses.contains(503))
    #expect(try server.get("/healthz").status == 200)
  }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

/// Work on a thread of its own (blocking calls must not hold Swift's few pool threads).
final class Background<T>: @unchecked Sendable {
  private var result: Result<T, any Error>?
  private let done = DispatchSemaphore(value: 0)

  init(_ work: @escaping @Sendable () throws -> T) {
    let thread = Thread {
      self.result = Result { try work() }
      self.done.signal()
    }
    thread.start()
  }

  func value() throws -> T {
    done.wait()
    done.signal()
    return try result!.get()
  }
}
