import Foundation
import Testing

/// `POST /api/trace` (SPEC §8): a run recorded step by step in the sandbox, against a real
/// server; its limits, bad requests and hostile programs.
@Suite("Playground API: traces")
struct TraceAPITests {
  static let fact = "extern printd(x)\ndef fact(n)\n  if n < 2 then 1 else n * fact(n - 1)\nprintd(fact(3))\n"

  private func steps(_ json: [String: Any]) throws -> [[String: Any]] {
    try #require(json["steps"] as? [[String: Any]])
  }

  @Test func aTraceHasEveryCallStepAndReturnWithTheFrames() throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/trace", ["source": Self.fact])
    #expect(reply.status == 200)
    let json = try reply.json()
    let steps = try steps(json)
    #expect(json["stdout"] as? String == "6\n0\n")
    #expect(json["exitCode"] as? Int == 0 && json["truncated"] as? Bool == false)
    let events = steps.map { $0["event"] as? String ?? "" }
    #expect(events.filter { $0 == "call" }.count == 4)  // the top level and fact three times
    #expect(events.filter { $0 == "return" }.count == 4)
    // The deepest step: the innermost frame last, each with its own n.
    let deepest = try #require(steps.max { ($0["frames"] as? [Any])?.count ?? 0 < ($1["frames"] as? [Any])?.count ?? 0 })
    let frames = try #require(deepest["frames"] as? [[String: Any]])
    #expect(frames.map { $0["function"] as? String } == ["top level", "fact", "fact", "fact"])
    #expect(frames.dropFirst().map { ($0["locals"] as? [String: Any])?["n"] as? Int } == [3, 2, 1])
    #expect(deepest["line"] as? Int == 3 && deepest["column"] as? Int == 3)
    // Output so far never shrinks, and ends as the run's.
    let lengths = steps.compactMap { $0["stdoutLength"] as? Int }
    #expect(lengths == lengths.sorted() && lengths.last == 2)
  }

  @Test func arraysAndGlobalsAreValuesAndARuntimeErrorEndsTheTrace() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/trace", ["source": "var a[] = [1, 2, 3]\ndef set(i) a[i] = 9\nset(1)\nset(7)\n"]).json()
    let steps = try steps(json)
    let last = try #require(steps.last)
    #expect((last["globals"] as? [String: Any])?["a"] as? [Int] == [1, 9, 3])
    // The step after a write carries it.
    let accesses = steps.flatMap { $0["accesses"] as? [[String: Any]] ?? [] }
    #expect(accesses.count == 1)
    #expect(accesses.first?["array"] as? String == "a" && accesses.first?["index"] as? Int == 1)
    #expect(accesses.first?["kind"] as? String == "write")
    #expect(json["exitCode"] as? Int == 1)
    #expect((json["stderr"] as? String)?.contains("main.ks:2:12: runtime error: index 7 is out of bounds") == true)
  }

  /// Numbers are written as the language prints them: whole ones as digits (negative, -0
  /// and 10^15 too), fractions by their shortest form.
  @Test func numbersAreInTheLanguagesFormat() throws {
    let server = try PlaygroundServer()
    let source = "var w[] = [0, -0, 7, -12, 999999999999999, -999999999999999, 1e15, 0.5, -2.25]\nw[0]\n"
    let body = String(decoding: try server.post("/api/trace", ["source": source]).body, as: UTF8.self)
    #expect(body.contains(#""w":[0,-0,7,-12,999999999999999,-999999999999999,1e+15,0.5,-2.25]"#))
  }

  /// Fractions come from a table of those written last: each of thousands, many of them
  /// in the same slot, is written as the program printed it.
  @Test func eachOfManyFractionsIsWrittenAsPrinted() throws {
    let server = try PlaygroundServer()
    let source = """
      extern printd(x)
      def binary : 1 (x y) y
      def show(x) printd(x)
      for i = 1, i < 1200 in show(i / 7 + 0.1) : show(1 / i)

      """
    let reply = try server.post("/api/trace", ["source": source])
    let body = String(decoding: reply.body, as: UTF8.self)
    // The text of `x` at each call of `show`, read from the body: a JSON parser's numbers
    // need not be the nearest doubles.
    let call = #/"event":"call","frames":\[[^\]]*\{"function":"show","line":3,"locals":\{"x":([^}]*)\}\}\]/#
    let shown = body.matches(of: call).map { String($0.output.1) }
    let printed = (try reply.json()["stdout"] as? String ?? "").split(separator: "\n").map(String.init)
    // Each value `show` printed, then the loop's own, 0.
    #expect(printed.count == 2 * 1199 + 1)
    let mismatch = zip(shown, printed).first { $0 != $1 }
    #expect(shown.count == 2 * 1199 && mismatch == nil)
  }

  /// A `var` that shadows a parameter is the one the code sees, and the only one shown.
  @Test func aShadowedNameShowsTheInnermostVariable() throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/trace", ["source": "def f(x)\n  var x = x + 1 in\n    x * 10\nf(1)\n"])
    let body = String(decoding: reply.body, as: UTF8.self)
    #expect(body.contains(#"{"function":"f","line":3,"locals":{"x":2}}"#))
    #expect(!body.contains(#""x":2,"x":1"#))
  }

  @Test func theProgramReadsTheInputGivenAndAFailedReadEndsTheTraceAsAnError() throws {
    let server = try PlaygroundServer()
    let source = "extern readd()\nreadd() + readd()\n"
    let read = try server.post("/api/trace", ["source": source, "stdin": "40 2"]).json()
    #expect(read["stdout"] as? String == "42\n")
    let failed = try server.post("/api/trace", ["source": source, "stdin": "40"]).json()
    #expect(failed["exitCode"] as? Int == 1)
    #expect((failed["stderr"] as? String)?.contains("readd() found the end of the input") == true)
    #expect(try !steps(failed).isEmpty)
  }

  @Test func maxStepsCutsTheTraceAndSaysSo() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/trace", ["source": Self.fact, "maxSteps": 5]).json()
    #expect(try steps(json).count == 5)
    #expect(json["truncated"] as? Bool == true)
  }

  @Test(
    arguments: [
      #"{"source": "1", "maxSteps": 0}"#, #"{"source": "1", "maxSteps": 20001}"#,
      #"{"source": "1", "maxSteps": "many"}"#, #"{"maxSteps": 5}"#, #"{"source": 7}"#,
    ])
  func badRequestsAre400(body: String) throws {
    let server = try PlaygroundServer()
    let reply = try HTTPClient.send("POST", "/api/trace", port: server.port, body: Data(body.utf8))
    #expect(reply.status == 400)
    #expect(try reply.json()["error"] is String)
  }

  @Test func aProgramWithErrorsHasNoStepsAndItsDiagnostics() throws {
    let server = try PlaygroundServer()
    let json = try server.post("/api/trace", ["source": "def f(x) y\n"]).json()
    #expect(try steps(json).isEmpty)
    #expect((json["diagnostics"] as? [[String: Any]])?.first?["message"] as? String == "unknown variable 'y'")
  }

  /// Hostile programs end within the limits: steps without end, calls without end, and
  /// arrays too large to show at every step.
  @Test(
    arguments: [
      "while 1 in 0\n", "def f(x) f(x + 1)\nf(0)\n",
      "var big[200000]\ndef fill(i) if i < len(big) then (big[i] = i) + fill(i + 1) else 0\nfill(0)\n",
    ])
  func hostileProgramsAreCut(source: String) throws {
    let server = try PlaygroundServer()
    let reply = try server.post("/api/trace", ["source": source])
    #expect(reply.status == 200)
    let json = try reply.json()
    #expect(json["truncated"] as? Bool == true)
    #expect(try steps(json).count <= 20_000)
    #expect(reply.body.count < 8 << 20)
  }
}
