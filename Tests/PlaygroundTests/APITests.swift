import Foundation
import Testing

/// The JSON API of SPEC §6, against a real `kaleidoscope serve` over HTTP.
@Suite("Playground API")
struct APITests {
  @Test func healthzAnswers200() throws {
    let server = try PlaygroundServer()
    let reply = try server.get("/healthz")
    #expect(reply.status == 200)
  }

  @Test func aRunReturnsTheProgramsOutputAndStatus() throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/run", ["source": "extern putchard(c)\ndef f(x) x * 2\nf(21)\nputchard(65)\n"])
    #expect(reply.status == 200)
    let json = try reply.json()
    #expect(json["stdout"] as? String == "42\nA\n0\n")
    #expect(json["exitCode"] as? Int == 0)
    #expect(json["timedOut"] as? Bool == false)
    #expect(json["truncated"] as? Bool == false)
    #expect((json["timeMs"] as? Double ?? 0) > 0)
  }

  /// `interpreter` is the older spelling of `interp`, which pages and scripts may still send.
  @Test(arguments: ["jit", "interp", "interpreter"])
  func bothEnginesReadStandardInput(engine: String) throws {
    let server = try PlaygroundServer()
    let source = "extern readd()\nreadd() + readd()\n"
    let json = try server.post("/api/run", ["source": source, "stdin": "1.5 2\n", "engine": engine, "opt": 0]).json()
    #expect(json["stdout"] as? String == "3.5\n")
  }

  @Test func compileErrorsComeBackAsLocatedDiagnostics() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/run", ["source": "def f(x) x\n\nf(y)\n"]).json()
    let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?["line"] as? Int == 3)
    #expect(diagnostics.first?["column"] as? Int == 3)
    #expect(diagnostics.first?["endColumn"] as? Int == 4)
    #expect(diagnostics.first?["severity"] as? String == "error")
    #expect(diagnostics.first?["message"] as? String == "unknown variable 'y'")
    #expect(json["exitCode"] as? Int == 1)
    #expect(json["stderr"] as? String == "")
  }

  @Test func aRuntimeErrorIsOneLocatedLineOnStandardError() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/run", ["source": "var a[3]\na[5]\n"]).json()
    #expect(json["stderr"] as? String == "main.ks:2:1: runtime error: index 5 is out of bounds for 'a' (length 3)\n")
    #expect(json["exitCode"] as? Int == 1)
  }

  @Test func aSandboxedExternIsRefusedWithItsReason() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/run", ["source": "extern system(x)\nsystem(0)\n"]).json()
    let message = (json["diagnostics"] as? [[String: Any]])?.first?["message"] as? String
    #expect(message?.hasPrefix("'system' cannot be used in the sandbox") == true, "\(json)")
  }

  @Test func anInfiniteLoopTimesOut() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/run", ["source": "def spin() for i = 0, 1 in 0\nspin()\n"]).json()
    #expect(json["timedOut"] as? Bool == true)
  }

  @Test func anOutputFloodIsTruncated() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/run", ["source": "extern putchard(c)\ndef f() for i = 0, 1 in putchard(66)\nf()\n"]).json()
    #expect(json["truncated"] as? Bool == true)
    #expect((json["stdout"] as? String)?.utf8.count == 64 << 10)
  }

  /// Each view, with a line of its text that only the real stage would print.
  @Test(arguments: [
    ("tokens", "1:1      keyword     def"), ("ast", "Function twice(x) <1:1>"),
    ("ir", "define double @twice(double %x)"),
  ])
  func eachViewShowsItsStage(view: String, expected: String) throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/view", ["source": "def twice(x)\n  x * 2\ntwice(4)\n", "view": view]).json()
    let text = try #require(json["text"] as? String)
    #expect(text.contains(expected), "\(text)")
    #expect(!text.contains("!dbg"))
  }

  /// The IR and assembly lines of `x * 2` point back at source line 2. A target is a short
  /// name or a triple of one of the four.
  @Test(arguments: [
    ("ir", nil), ("asm", "x-86-64"), ("asm", "sparc-sun-solaris"), ("asm", "x86-64"), ("asm", "aarch64"), ("asm", "riscv64"),
    ("asm", "wasm32"), ("asm", "aarch64-linux-gnu"), ("asm", "x86_64-unknown-linux-gnu"), ("asm", "wasm32-unknown-unknown"),
  ])
  func listingsMapTheirLinesToTheSource(view: String, target: String?) throws {
    let server = try PlaygroundServer()
    var request: [String: Any] = ["source": "def twice(x)\n  x * 2\ntwice(4)\n", "view": view, "opt": 2]
    if let target { request["target"] = target }
    let reply = try server.post("/api/view", request)
    if target == "x-86-64" || target == "sparc-sun-solaris" {
      #expect(reply.status == 400)
      return
    }
    let json = try reply.json()
    let lines = try #require(json["lines"] as? [Int])
    let text = try #require(json["text"] as? String)
    #expect(lines.count == text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
    #expect(lines.contains(2), "\(text)")
    #expect(!text.contains(".debug_"))
  }

  /// `"diff": true` answers the IR at -O0 against the IR at `opt` as a unified diff with
  /// every line, computed in the sandbox; it applies to the IR view only.
  @Test func theIRViewDiffsAgainstUnoptimizedIR() throws {
    let server = try PlaygroundServer()
    let source = "def f(x) x * 2\nf(3)\n"
    let json = try server.post("/api/view", ["source": source, "view": "ir", "opt": 2, "diff": true]).json()
    let text = try #require(json["text"] as? String)
    #expect(text.hasPrefix("--- -O0\n+++ -O2\n@@ "), "\(text)")
    #expect(text.contains("\n-  %x.addr = alloca double"), "\(text)")
    #expect(text.contains("\n+define double @f(double %x) local_unnamed_addr"), "\(text)")
    let same = try server.post("/api/view", ["source": source, "view": "ir", "opt": 0, "diff": true]).json()
    #expect(same["text"] as? String == "")
    let misuse = try server.post("/api/view", ["source": source, "view": "asm", "diff": true])
    #expect(misuse.status == 400)
  }

  @Test func viewsOfAProgramWithErrorsReturnItsDiagnostics() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/view", ["source": "def f(x) x +\n", "view": "ast"]).json()
    #expect((json["diagnostics"] as? [[String: Any]])?.isEmpty == false)
  }

  @Test func aSharedSnippetCanBeReadBackAndOpened() throws {
    let server = try PlaygroundServer()
    let created = try server.post("/api/share", ["source": "fib(10)\n# ✓\n"])
    #expect(created.status == 201)
    let json = try created.json()
    let id = try #require(json["id"] as? String)
    #expect(id.count == 10)
    #expect(json["url"] as? String == "/s/\(id)")
    #expect(try server.get("/api/share/\(id)").json()["source"] as? String == "fib(10)\n# ✓\n")
    let page = try server.get("/s/\(id)")
    #expect(page.status == 200)
    #expect(page.text.contains("<button id=\"run\""))
  }

  @Test func snippetsOutliveTheServer() throws {
    let directory = NSTemporaryDirectory() + "ks-snippets-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let database = directory + "/nested/snippets.sqlite"
    let first = try PlaygroundServer(database: database)
    let id = try #require(try first.post("/api/share", ["source": "1 + 2\n"]).json()["id"] as? String)
    #expect(first.stop() == 0)
    let second = try PlaygroundServer(database: database)
    #expect(try second.get("/api/share/\(id)").json()["source"] as? String == "1 + 2\n")
  }

  @Test(arguments: ["/api/share/AAAAAAAAAA", "/api/share/..%2F..%2Fetc", "/static/nothing.js", "/codemirror/../../etc/passwd"])
  func unknownThingsAre404(path: String) throws {
    let server = try PlaygroundServer()
    #expect(try server.get(path).status == 404)
  }

  @Test func thePageAndItsFilesAreServedLocally() throws {
    let server = try PlaygroundServer()
    let page = try server.get("/")
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    // Every script and style the page loads comes from this server.
    let references = page.text.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.1) }
    #expect(references.count >= 6)
    for reference in references {
      #expect(reference.hasPrefix("/"), "\(reference)")
      #expect(try server.get(reference).status == 200, "\(reference)")
    }
  }

  @Test func theExamplesMenuListsTheRepositorysPrograms() throws {
    let server = try PlaygroundServer()
    let reply = try server.get("/api/examples")
    let list = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]])
    #expect(list.contains { $0["name"] as? String == "fib" && ($0["source"] as? String)?.contains("def fib") == true })
    #expect(list.count >= 8, "the menu lists \(list.count) examples")
  }

  @Test func sigtermStopsTheServerCleanly() throws {
    let server = try PlaygroundServer()
    #expect(try server.get("/healthz").status == 200)
    #expect(try server.get("/api/examples").status == 200)
    #expect(server.stop() == 0)
    // Requests are logged as they are answered; a balancer's health checks are not.
    #expect(server.logText.contains("GET /api/examples 200"), "\(server.logText)")
    #expect(!server.logText.contains("GET /healthz"), "\(server.logText)")
  }
}
