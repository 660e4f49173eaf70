import Foundation
import Testing

/// The `passes` and `cfg` views of `POST /api/view` (SPEC §7), against a real server.
@Suite("Playground API: the compiler explained")
struct ExplainAPITests {
  static let fib = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(10)\n"

  @Test func passesListEveryRunAndWhatTheChangedOnesDid() throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/view", ["source": Self.fib, "view": "passes"])
    #expect(reply.status == 200)
    let json = try reply.json()
    let passes = try #require(json["passes"] as? [[String: Any]])
    let changed = passes.filter { $0["changed"] as? Bool == true }
    let unchanged = passes.filter { $0["changed"] as? Bool == false }
    #expect(changed.count >= 5 && unchanged.count > changed.count)
    let sroa = try #require(changed.first { $0["pass"] as? String == "SROAPass" && $0["function"] as? String == "fib" })
    #expect((sroa["before"] as? String)?.contains("alloca double") == true)
    #expect((sroa["after"] as? String)?.contains("alloca") == false)
    #expect(unchanged.allSatisfy { ($0["before"] as? String)?.isEmpty == true })
    #expect(json["functions"] as? [String] == ["__anon_0", "__ks_main", "fib"])
    #expect(json["truncated"] as? Bool == false)
    #expect((json["text"] as? String)?.hasSuffix(" changed the IR\n") == true)
    // The server's fields beside the sandboxed view's.
    #expect((json["diagnostics"] as? [Any])?.isEmpty == true && json["lines"] as? [Int] == [])
  }

  @Test func passesOfOneFunction() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/view", ["source": Self.fib, "view": "passes", "function": "fib", "opt": 1]).json()
    let passes = try #require(json["passes"] as? [[String: Any]])
    #expect(!passes.isEmpty)
    #expect(passes.allSatisfy { $0["function"] as? String == "fib" })
  }

  @Test(arguments: ["passes", "cfg"])
  func anUnknownFunctionIs400(view: String) throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/view", ["source": Self.fib, "view": view, "function": "nope"])
    #expect(reply.status == 400)
    #expect(try reply.json()["error"] as? String == "no function 'nope' in the program")
  }

  @Test func theChapter5DiamondComesAsDOTAndSVG() throws {
    let server = try PlaygroundServer()
    let source = "def choose(x) if x < 3 then 1 else 2\nchoose(1)\n"
    let json = try server.post("/api/view", ["source": source, "view": "cfg", "function": "choose"]).json()
    let text = try #require(json["text"] as? String)
    #expect(text.hasPrefix("digraph \"choose\" {"))
    #expect(text.contains("b0 -> b1 [label=\"T\""))
    #expect(text.contains("b1 -> b3;") && text.contains("b2 -> b3;"))
    #expect(text.contains("%iftmp = phi double"))
    let svg = try #require(json["svg"] as? String)
    #expect(svg.contains("<svg") && svg.contains("ifcont:"))
    #expect(json["functions"] as? [String] == ["choose", "__anon_0", "__ks_main"])
  }

  @Test func theMachineCodesGraphForATarget() throws {
    let server = try PlaygroundServer()
    let source = "def sum(n) var s = 0 in (for i = 0, i < n in s = s + i) + s\nsum(10)\n"
    let json = try server.post(
      "/api/view", ["source": source, "view": "cfg", "asm": true, "target": "riscv64", "opt": 2, "function": "sum"]
    ).json()
    let text = try #require(json["text"] as? String)
    #expect(text.contains("\\l  ret\\l"))
    #expect(text.contains("style=\"dashed,bold\""))
  }

  @Test func optionsOfOtherViewsAre400() throws {
    let server = try PlaygroundServer()
    let cases: [([String: Any], String)] = [
      (["view": "ir", "function": "fib"], "'function' applies to the 'passes' and 'cfg' views only"),
      (["view": "passes", "asm": true], "'asm' applies to the 'cfg' view only"),
    ]
    for (fields, message) in cases {
      let reply = try server.post("/api/view", fields.merging(["source": Self.fib]) { first, _ in first })
      #expect(reply.status == 400)
      #expect(try reply.json()["error"] as? String == message)
    }
  }

  /// Assembly hides directives unless asked, on every target.
  @Test(arguments: ["x86-64", "aarch64", "riscv64", "wasm32"])
  func assemblyHidesDirectivesUnlessAsked(target: String) throws {
    let server = try PlaygroundServer()
    let source = "def twice(x) x * 2.5\ntwice(4)\n"
    let plain = try server.post("/api/view", ["source": source, "view": "asm", "target": target]).json()
    let text = try #require(plain["text"] as? String)
    #expect(text.hasPrefix("twice:\n"), "\(text)")
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("\t.") })
    let all = try server.post(
      "/api/view", ["source": source, "view": "asm", "target": target, "filters": ["directives": false]]
    ).json()
    #expect((all["text"] as? String)?.contains("\t.globl\ttwice") == true)
    let lineCount = (all["text"] as? String).map { $0.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
    #expect((all["lines"] as? [Int])?.count == lineCount)
  }

  @Test func filtersOnAnotherViewAre400() throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/view", ["source": Self.fib, "view": "ir", "filters": ["directives": false]])
    #expect(reply.status == 400)
    #expect(try reply.json()["error"] as? String == "'filters' applies to the 'asm' view only")
  }

  /// A view longer than the output limit is its beginning, whole lines, flagged: not an error.
  @Test(arguments: ["ir", "asm", "tokens"])
  func anOversizedViewIsTruncatedWithAFlag(view: String) throws {
    let server = try PlaygroundServer()
    let source = (0..<600).map { "def f\($0)(x) x * \($0) + (if x < \($0) then 1 else 2)\n" }.joined()
    let reply = try server.post("/api/view", ["source": source, "view": view])
    #expect(reply.status == 200)
    let json = try reply.json()
    #expect(json["truncated"] as? Bool == true)
    let text = try #require(json["text"] as? String)
    #expect(text.utf8.count > 10_000 && text.hasSuffix("\n"))
  }

  @Test func aSmallViewIsNotTruncated() throws {
    let server = try PlaygroundServer()
    #expect(try server.post("/api/view", ["source": Self.fib, "view": "ir"]).json()["truncated"] as? Bool == false)
  }

  @Test func aProgramWithErrorsGetsItsDiagnostics() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/view", ["source": "def f(x) y\n", "view": "passes"]).json()
    #expect(json["text"] as? String == "")
    #expect((json["diagnostics"] as? [[String: Any]])?.first?["message"] as? String == "unknown variable 'y'")
  }
}
