import KaleidoscopeFrontend
import Testing

@testable import KaleidoscopeSandbox

/// The command lines the server gives a sandboxed run or view, which the tool reads without
/// swift-argument-parser (`Sandbox.ChildRun`, `Sandbox.ChildView`): every run and view the
/// server asks for reads back as itself, and any other command line is left to the parser.
@Suite("A sandboxed run's or view's command line")
struct ChildRunTests {
  static let requests: [Sandbox.Request] = {
    var requests: [Sandbox.Request] = []
    for tier in [Tier.jit, .interp] {
      for semantics in ForSemantics.allCases {
        var request = Sandbox.Request(source: Array("1\n".utf8), name: "fib.ks")
        (request.tier, request.forSemantics, request.optimization) = (tier, semantics, tier == .jit ? 0 : 3)
        requests.append(request)
        var everything = request
        (everything.quiet, everything.probe, everything.jsonDiagnostics) = (true, true, true)
        everything.traceSteps = 6000
        everything.name = "-- odd name with spaces.ks"
        requests.append(everything)
      }
    }
    return requests
  }()

  @Test(arguments: requests)
  func everyRunTheServerAsksForReadsBackAsItself(request: Sandbox.Request) throws {
    var limits = Sandbox.Limits()
    (limits.cpuSeconds, limits.memoryBytes) = (7, 64 << 20)
    let arguments = Sandbox.arguments(for: request, limits: limits)
    let run = try #require(Sandbox.ChildRun(arguments: arguments))
    #expect(run == Sandbox.ChildRun(request, limits: limits))
    #expect(run.name == request.name)
    #expect(run.tier == request.tier)
    #expect(run.forSemantics == request.forSemantics)
    #expect(run.optimization == request.optimization)
    #expect(run.traceSteps == request.traceSteps)
    #expect((run.quiet, run.probe, run.jsonDiagnostics) == (request.quiet, request.probe, request.jsonDiagnostics))
    #expect((run.cpuSeconds, run.memoryBytes) == (7, 64 << 20))
  }

  /// What a person might type, and what the server writes for anything but a run.
  @Test(arguments: [
    ["kaleidoscope", "run", "fib.ks"],
    ["kaleidoscope", "run", "--sandbox", "fib.ks"],
    ["kaleidoscope", "run", "--sandboxed", "--tier", "jit", "-O2", "--", "fib.ks"],
    Sandbox.ChildRun(name: "fib.ks").arguments.filter { $0 != "--color" && $0 != "never" },
    Sandbox.ChildRun(name: "fib.ks").arguments.map { $0 == "2" ? "02" : $0 },
    Sandbox.ChildRun(name: "fib.ks").arguments.map { $0 == "2" ? "7" : $0 },
    Sandbox.ChildRun(name: "fib.ks").arguments + ["extra.ks"],
    Array(Sandbox.ChildRun(name: "fib.ks").arguments.dropLast()),
  ])
  func anyOtherCommandLineIsLeftToTheParser(arguments: [String]) {
    #expect(Sandbox.ChildRun(arguments: arguments) == nil)
  }

  static let views: [Sandbox.Request] = View.allCases.flatMap { view -> [Sandbox.Request] in
    var plain = Sandbox.Request(source: Array("1\n".utf8), name: "fib.ks")
    (plain.view, plain.optimization) = (view, 0)
    var everything = plain
    (everything.target, everything.function, everything.optimization) = ("aarch64", "fib", 3)
    (everything.graphsMachineCode, everything.diffFromUnoptimized, everything.jsonDiagnostics) = (true, true, true)
    everything.name = "--view"
    return [plain, everything]
  }

  @Test(arguments: views)
  func everyViewTheServerAsksForReadsBackAsItself(request: Sandbox.Request) throws {
    var limits = Sandbox.Limits()
    (limits.cpuSeconds, limits.memoryBytes) = (3, 32 << 20)
    let arguments = Sandbox.arguments(for: request, limits: limits)
    #expect(Sandbox.ChildRun(arguments: arguments) == nil)
    let view = try #require(Sandbox.ChildView(arguments: arguments))
    #expect(view == Sandbox.ChildView(request, view: request.view!, limits: limits))
    #expect((view.name, view.view, view.target, view.function) == (request.name, request.view, request.target, request.function))
    #expect((view.graphsMachineCode, view.diffFromUnoptimized) == (request.graphsMachineCode, request.diffFromUnoptimized))
    #expect((view.optimization, view.jsonDiagnostics) == (request.optimization, request.jsonDiagnostics))
    #expect((view.cpuSeconds, view.memoryBytes) == (3, 32 << 20))
  }

  @Test func aDrawingIsLeftToTheParser() {
    var request = Sandbox.Request(source: [], name: "g.dot")
    request.drawsGraph = true
    let arguments = Sandbox.arguments(for: request, limits: Sandbox.Limits())
    #expect(Sandbox.ChildView(arguments: arguments) == nil)
    #expect(Sandbox.ChildRun(arguments: arguments) == nil)
  }

  @Test(arguments: [
    ["kaleidoscope", "sandboxed-view", "--view", "ir", "fib.ks"],
    [
      "kaleidoscope", "sandboxed-view", "--view", "graph", "--sandbox-cpu", "2", "--sandbox-memory", "1", "-O", "2",
      "--color", "never", "--", "fib.ks",
    ],
    Sandbox.ChildView(name: "fib.ks", view: .ir).arguments,
    [
      "kaleidoscope", "sandboxed-view", "--view", "passes", "--function", "f", "--target", "x86-64", "--sandbox-cpu", "2",
      "--sandbox-memory", "1", "-O", "2", "--color", "never", "--", "fib.ks",
    ],
  ])
  func aViewSpelledOtherwiseIsLeftToTheParser(arguments: [String]) {
    #expect(Sandbox.ChildView(arguments: arguments) == nil)
  }
}
