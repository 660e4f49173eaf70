import Foundation
import Testing

/// `run --sandbox`: a program runs in a process of its own under the playground's limits
/// (SPEC §6). Each limit is proved with a hostile program, in both the jit and interp tiers.
@Suite("Sandbox")
struct SandboxTests {
  static let tiers = [["--tier", "jit"], ["--tier", "interp"]]

  static func run(_ program: String, _ arguments: [String] = [], stdin: String = "") throws -> Tool.Output {
    let directory = NSTemporaryDirectory() + "ks-sandbox-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try program.write(toFile: directory + "/program.ks", atomically: true, encoding: .utf8)
    return try Tool.run(["run", "--sandbox"] + arguments + ["program.ks"], stdin: stdin, in: directory)
  }

  @Test(arguments: tiers)
  func aProgramRunsWithItsInput(tier: [String]) throws {
    let program = "extern readd()\nextern printd(x)\ndef fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(readd())\n"
    let output = try Self.run(program, tier, stdin: "20\n")
    #expect(output.stdout == "6765\n")
    #expect(output.stderr == "")
    #expect(output.status == 0)
  }

  @Test(arguments: tiers)
  func anInfiniteLoopIsStoppedAtItsCPUTime(tier: [String]) throws {
    let program = "def binary : 1 (x y) y\ndef spin() var x = 0 in (for i = 0, 1 in x = x + 1) : x\nspin()\n"
    let output = try Self.run(program, tier)
    #expect(output.stderr.hasSuffix("sandbox: the program used its 2 s of CPU time, and was stopped\n"), "\(output.stderr)")
    #expect(output.status == 1)
  }

  @Test func aProgramThatWaitsIsStoppedAtTheWallClockLimit() throws {
    let program = "def binary : 1 (x y) y\ndef spin() var x = 0 in (for i = 0, 1 in x = x + 1) : x\nspin()\n"
    let output = try Self.run(program, ["--sandbox-cpu", "60", "--sandbox-wall", "0.5"])
    #expect(output.stderr.hasSuffix("sandbox: the program ran for 0.5 s, and was stopped\n"), "\(output.stderr)")
    #expect(output.status == 1)
  }

  @Test(arguments: tiers)
  func runawayRecursionIsAStackOverflow(tier: [String]) throws {
    let output = try Self.run("def down(n) down(n + 1) + 1\ndown(0)\n", tier)
    #expect(output.stderr == "program.ks:1:13: runtime error: stack overflow: more than 100000 nested calls\n")
    #expect(output.status == 1)
  }

  /// The call depth limit is the same in the sandbox as outside it (SPEC §3).
  @Test(arguments: tiers)
  func theDeepestRecursionRunsAndOneMoreIsAStackOverflow(tier: [String]) throws {
    let output = try Self.run("def down(n) if n < 2 then n else 1 + down(n - 1)\ndown(100000)\ndown(100001)\n", tier)
    #expect(output.stdout == "100000\n")
    #expect(output.stderr == "program.ks:1:38: runtime error: stack overflow: more than 100000 nested calls\n")
    #expect(output.status == 1)
  }

  /// 240 MB fits in the 256 MiB; a second array of the same size does not.
  @Test(arguments: tiers)
  func aMemoryBombRunsOutOfMemory(tier: [String]) throws {
    let output = try Self.run("var a[30000000], b[30000000]\nlen(a) + len(b)\n", tier)
    #expect(output.stderr == "program.ks:1:18: runtime error: out of memory for 'b' (30000000 elements)\n")
    #expect(output.status == 1)
  }

  @Test(arguments: tiers)
  func anOutputFloodIsCutAt64KiB(tier: [String]) throws {
    let output = try Self.run("extern putchard(c)\ndef flood() for i = 0, 1 in putchard(65)\nflood()\n", tier)
    #expect(output.stdout.utf8.count == 64 << 10)
    #expect(output.stderr.hasSuffix("sandbox: the program wrote more than 64 KiB, and was stopped\n"), "\(output.stderr)")
    #expect(output.status == 1)
  }

  @Test(arguments: ["system", "fork", "unlink", "fopen", "dlopen", "mmap", "exit", "getenv"])
  func externsBeyondTheRuntimeAndLibmAreCompileErrors(name: String) throws {
    let output = try Self.run("extern \(name)(x)\n\(name)(0)\n")
    #expect(
      output.stderr.contains(
        "program.ks:1:8: error: '\(name)' cannot be used in the sandbox: an extern may name only putchard, printd, getchard, readd and the C math library"
      ), "\(output.stderr)")
    #expect(output.stdout == "")
    #expect(output.status == 1)
  }

  /// What the filter refuses, tried from inside the sandbox by the child itself.
  @Test func theSandboxRefusesFilesNetworkProcessesAndExecutableMemory() throws {
    let output = try Self.run("0\n", ["--sandbox-probe"])
    for call in ["open", "create", "socket", "fork", "execve", "mmap", "kill"] {
      #expect(output.stdout.contains("\(call): refused (Operation not permitted)\n"), "\(output.stdout)")
    }
    #expect(!output.stdout.contains("allowed"))
  }

  /// 24 hostile programs at once (loops, floods, bombs, recursion), while a normal one
  /// still gets its answer.
  @Test func hostileProgramsAtOnceLeaveANormalOneItsAnswer() async throws {
    let hostile = [
      "def binary : 1 (x y) y\ndef spin() var x = 0 in (for i = 0, 1 in x = x + 1) : x\nspin()\n",
      "extern putchard(c)\ndef flood() for i = 0, 1 in putchard(65)\nflood()\n",
      "var a[30000000], b[30000000]\n0\n",
      "def down(n) down(n + 1) + 1\ndown(0)\n",
    ]
    try await withThrowingTaskGroup(of: Int32.self) { group in
      for index in 0..<24 {
        group.addTask { try Self.run(hostile[index % hostile.count]).status }
      }
      let normal = try Self.run("def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(25)\n")
      #expect(normal.stdout == "75025\n")
      #expect(normal.status == 0)
      for try await status in group { #expect(status == 1) }
    }
  }

  /// The server's command line for a sandboxed run is read without swift-argument-parser
  /// (`Sandbox.ChildRun`); the same run spelled another way, as by hand, goes through the
  /// parser. Both roads run the program, and report its errors, alike.
  @Test(arguments: [
    (["--tier", "jit"], "extern readd()\ndef twice(x) x * 2\ntwice(readd())\n", "21\n"),
    (["--tier", "interp", "-q"], "extern printd(x)\nprintd(4 + 1)\n7\n", ""),
    (["--tier", "jit", "--sandbox-json"], "def f(x) x +\n", ""),
    (["--tier", "interp"], "var a[3]\na[5]\n", ""),
  ])
  func theServersCommandLineAndAHandTypedOneRunAlike(options: [String], source: String, input: String) throws {
    let framed = "\(source.utf8.count)\n\(source)\(input)"
    let tier = Array(options.prefix(2))
    let quiet = options.contains("-q") ? ["-q"] : []
    let json = options.contains("--sandbox-json") ? ["--sandbox-json"] : []
    let servers =
      ["run", "--sandboxed"] + tier + ["--for-semantics", "current"] + quiet
      + ["--sandbox-cpu", "2", "--sandbox-memory", "268435456", "-O", "2", "--color", "never"] + json
      + ["--", "program.ks"]
    let byHand =
      ["run", "--sandboxed", "-O2", "--color=never"] + json + quiet + tier
      + ["--sandbox-memory=268435456", "program.ks"]
    let fast = try Tool.run(servers, stdin: framed)
    let parsed = try Tool.run(byHand, stdin: framed)
    #expect(fast.stdout == parsed.stdout)
    #expect(fast.stderr == parsed.stderr)
    #expect(fast.status == parsed.status)
    #expect(!(fast.stdout + fast.stderr).isEmpty)
  }

  /// The same for the playground's panes (`Sandbox.ChildView`).
  @Test(arguments: ["tokens", "ir", "asm"])
  func theServersViewCommandLineAndAHandTypedOneShowAlike(view: String) throws {
    let source = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(10)\n"
    let framed = "\(source.utf8.count)\n\(source)"
    let servers =
      ["sandboxed-view", "--view", view, "--sandbox-cpu", "2", "--sandbox-memory", "268435456", "-O", "2"]
      + ["--color", "never", "--", "fib.ks"]
    let byHand = ["sandboxed-view", "-O2", "--view=\(view)", "--color=never", "fib.ks"]
    let fast = try Tool.run(servers, stdin: framed)
    let parsed = try Tool.run(byHand, stdin: framed)
    #expect(fast.stdout == parsed.stdout)
    #expect(fast.stderr == parsed.stderr)
    #expect(fast.status == parsed.status)
    #expect(fast.stdout.contains("fib"))
  }
}
