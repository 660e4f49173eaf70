import KaleidoscopeFrontend
import Testing

@testable import KaleidoscopeSandbox

/// The command line the server gives a sandboxed run, which the tool reads without
/// swift-argument-parser (`Sandbox.ChildRun`): every run the server asks for reads back as
/// itself, and any other command line is left to the parser.
@Suite("A sandboxed run's command line")
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
}
