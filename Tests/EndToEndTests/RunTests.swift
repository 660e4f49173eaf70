import Foundation
import Testing

/// Each `Programs/NAME.ks` runs with the built binary; its standard output must equal
/// `NAME.out`, its standard error `NAME.err` (empty if absent). A `# RUN: run ARGS` first
/// line gives the arguments and `# EXIT: N` the expected status (default 0); `NAME.in`, if
/// present, is its standard input.
@Suite("Programs")
struct RunTests {
  /// One program of `Programs/`, with what its first lines ask for.
  struct Program: CustomTestStringConvertible {
    let name: String
    var testDescription: String { name }

    var source: String { (try? String(contentsOfFile: TestData.path("Programs", "\(name).ks"), encoding: .utf8)) ?? "" }

    var arguments: [String] {
      for line in source.split(separator: "\n") where line.hasPrefix("# RUN: ") {
        return line.dropFirst("# RUN: ".count).split(separator: " ").map(String.init)
      }
      return ["run"]
    }

    var expectedStatus: Int32 {
      for line in source.split(separator: "\n") where line.hasPrefix("# EXIT: ") {
        return Int32(line.dropFirst("# EXIT: ".count)) ?? -1
      }
      return 0
    }

    func expected(_ suffix: String) -> String {
      (try? String(contentsOfFile: TestData.path("Programs", "\(name).\(suffix)"), encoding: .utf8)) ?? ""
    }

    /// What the program reads on standard input.
    var input: String { expected("in") }
  }

  static let programs = TestData.programs(in: "Programs").map(Program.init)

  @Test("run", arguments: programs)
  func run(program: Program) throws {
    let output = try Tool.run(program.arguments + ["\(program.name).ks"], stdin: program.input, in: TestData.path("Programs", ""))
    #expect(output.stdout == program.expected("out"))
    #expect(output.stderr == program.expected("err"))
    #expect(output.status == program.expectedStatus)
  }

  /// `run FILE` skips the command-line parser (`PlainInvocation`); with its defaults spelled
  /// out, the parser runs, and everything must come out the same.
  @Test("run with its defaults spelled out prints the same", arguments: programs.filter { $0.arguments == ["run"] })
  func defaultsSpelledOut(program: Program) throws {
    let arguments = ["run", "-O2", "--tier", "auto", "--for-semantics", "current", "--color", "auto"]
    let output = try Tool.run(arguments + ["\(program.name).ks"], stdin: program.input, in: TestData.path("Programs", ""))
    #expect(output.stdout == program.expected("out"))
    #expect(output.stderr == program.expected("err"))
    #expect(output.status == program.expectedStatus)
  }

  @Test("run at -O0 prints the same", arguments: programs)
  func unoptimized(program: Program) throws {
    let output = try Tool.run(
      program.arguments + ["-O0", "\(program.name).ks"], stdin: program.input, in: TestData.path("Programs", ""))
    #expect(output.stdout == program.expected("out"))
    #expect(output.status == program.expectedStatus)
  }

  @Test("the interpreter prints the same", arguments: programs)
  func interpreted(program: Program) throws {
    let output = try Tool.run(
      program.arguments + ["--tier", "interp", "\(program.name).ks"], stdin: program.input,
      in: TestData.path("Programs", ""))
    #expect(output.stdout == program.expected("out"))
    #expect(output.stderr == program.expected("err"))
    #expect(output.status == program.expectedStatus)
  }

  /// The JIT tier, and the tiers with everything promoted at once (each function at its first
  /// call, each loop before its first iteration) or late (after 3 calls; a loop after 5
  /// iterations, in its middle), compiling on the interpreter's thread so that the switch
  /// happens at the same point in every run.
  @Test(
    "every tier prints the same",
    arguments: [
      ["--tier", "jit"],
      ["--tier-wait", "--tier-hot-calls", "1", "--tier-hot-iterations", "0"],
      ["--tier-wait", "--tier-hot-calls", "3", "--tier-hot-iterations", "5"],
    ], programs)
  func tiers(tier: [String], program: Program) throws {
    let output = try Tool.run(
      program.arguments + tier + ["\(program.name).ks"], stdin: program.input, in: TestData.path("Programs", ""))
    #expect(output.stdout == program.expected("out"))
    #expect(output.stderr == program.expected("err"))
    #expect(output.status == program.expectedStatus)
  }

  /// `build` then execute gives byte-identical output and the same status as `run`.
  @Test("built executable matches run", arguments: programs)
  func built(program: Program) throws {
    let directory = TestData.path("Programs", "")
    let executable = NSTemporaryDirectory() + "ks-\(program.name)-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: executable) }
    var arguments = program.arguments
    arguments[0] = "build"
    let build = try Tool.run(arguments + ["-o", executable, "\(program.name).ks"], in: directory)
    try #require(build.status == 0, "build failed: \(build.stderr)")
    let output = try Tool.runExecutable(executable, stdin: program.input, in: directory)
    #expect(output.stdout == program.expected("out"))
    #expect(output.stderr == program.expected("err"))
    #expect(output.status == program.expectedStatus)
  }

  @Test func programOnStandardInputRunsWithoutASubcommand() throws {
    let output = try Tool.run([], stdin: "def f(x) x * 2\nf(21)\n")
    #expect(output.status == 0)
    #expect(output.stdout == "42\n")
  }

  @Test func aFileWithErrorsRunsNothing() throws {
    let output = try Tool.run(["run", "-"], stdin: "extern printd(x)\nprintd(1)\ny\n")
    #expect(output.status == 1)
    #expect(output.stdout.isEmpty)
  }

  @Test(arguments: [["run", "-O4", "-"], ["run", "--for-semantics=sideways", "-"]])
  func badOptionsExitWith64(arguments: [String]) throws {
    #expect(try Tool.run(arguments, stdin: "1").status == 64)
  }
}
