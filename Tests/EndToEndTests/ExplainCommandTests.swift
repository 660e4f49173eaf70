import Foundation
import Testing

/// The commands that show how the compiler works (SPEC §7), and their errors.
@Suite("Explaining commands")
struct ExplainCommandTests {
  static let program = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(10)\n"

  @Test func passesOfAnUnknownFunctionIsAnError() throws {
    let output = try Tool.run(["ir", "--passes", "--function", "nope", "-"], stdin: Self.program)
    #expect(output.status == 1)
    #expect(output.stdout.isEmpty)
    #expect(output.stderr == "error: <stdin> has no function 'nope'\n")
  }

  @Test(arguments: [["ir", "--full", "-"], ["ir", "--function", "fib", "-"]])
  func passOptionsWithoutPassesAreAUsageError(arguments: [String]) throws {
    let output = try Tool.run(arguments, stdin: Self.program)
    #expect(output.status == 64)
    #expect(output.stderr.contains("--function and --full go with --passes"))
  }

  /// Every function's changes, then the count; each header names a pass and a function.
  @Test func passesListsEveryChangedFunction() throws {
    let output = try Tool.run(["ir", "--passes", "-O3", "-"], stdin: Self.program)
    #expect(output.status == 0)
    let headers = output.stdout.split(separator: "\n").filter { $0.hasPrefix("*** ") }
    #expect(headers.count >= 10)
    #expect(headers.allSatisfy { $0.hasSuffix(" ***") && $0.contains(" on ") })
    #expect(headers.contains("*** SROAPass on fib ***"))
    #expect(output.stdout.split(separator: "\n").last?.hasSuffix("changed the IR") == true)
  }
}

/// `cfg`'s drawing and its errors.
@Suite("cfg")
struct CFGCommandTests {
  @Test func svgIsDrawnByGraphviz() throws {
    let output = try Tool.run(["cfg", "--format", "svg", "-"], stdin: ExplainCommandTests.program)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("<svg"))
    #expect(output.stdout.contains("<title>cfg</title>"))
    #expect(output.stdout.contains(">fib</text>"))
  }

  @Test func oneDigraphPerFunction() throws {
    let output = try Tool.run(["cfg", "-"], stdin: ExplainCommandTests.program)
    #expect(output.status == 0)
    let names = output.stdout.split(separator: "\n").filter { $0.hasPrefix("digraph ") }
    #expect(names == ["digraph \"fib\" {", "digraph \"__anon_0\" {", "digraph \"__ks_main\" {"])
  }

  @Test func anUnknownFunctionIsAnError() throws {
    let output = try Tool.run(["cfg", "--function", "nope", "-"], stdin: ExplainCommandTests.program)
    #expect(output.status == 1)
    #expect(output.stderr == "error: <stdin> has no function 'nope'\n")
  }

  @Test func anUnknownFormatIsAUsageError() throws {
    let output = try Tool.run(["cfg", "--format", "png", "-"], stdin: ExplainCommandTests.program)
    #expect(output.status == 64)
  }
}

/// `cfg --asm` and its target.
@Suite("cfg --asm")
struct MachineCFGCommandTests {
  static let loop = "def sum(n) var s = 0 in (for i = 0, i < n in s = s + i) + s\nsum(10)\n"

  @Test(arguments: ["x86-64", "aarch64", "riscv64"])
  func aLoopHasItsBackEdgeOnEveryTarget(target: String) throws {
    let output = try Tool.run(["cfg", "--asm", "-O2", "--target", target, "--function", "sum", "-"], stdin: Self.loop)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.hasPrefix("digraph \"sum\" {\n"))
    let backEdge = "b2 -> b2 [label=\"T\", color=\"darkgreen\", fontcolor=\"darkgreen\", style=\"dashed,bold\"];"
    #expect(output.stdout.contains(backEdge))
  }

  @Test func wasmIsRefusedWithItsReason() throws {
    let output = try Tool.run(["cfg", "--asm", "--target", "wasm32", "-"], stdin: Self.loop)
    #expect(output.status == 1)
    #expect(output.stderr.contains("wasm32's control flow is structured"))
  }

  @Test func aTargetWithoutAsmIsAUsageError() throws {
    let output = try Tool.run(["cfg", "--target", "aarch64", "-"], stdin: Self.loop)
    #expect(output.status == 64)
    #expect(output.stderr.contains("--target goes with --asm"))
  }
}
