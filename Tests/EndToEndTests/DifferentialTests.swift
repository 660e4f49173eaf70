import Foundation
import TestSupport
import Testing

/// Every engine must print byte-identical output for the same program: the reference
/// interpreter, the JIT at -O0 and -O3, a native
/// executable, and the tiers with promotion early (every function compiled at its first
/// call, every loop before its first iteration), late (after 50 calls, a loop after 5
/// iterations: on-stack replacement in the middle of a loop) and never, each compiling on
/// the interpreter's thread so that the switch happens at the same point in every run; and
/// once with everything hot at once but compiled in the background, as `run` does, where
/// the compiler also compiles loops ahead once idle: when code switches then varies from
/// run to run, and the output must not. Every tiered run must also have had all it asked
/// for compiled: a module LLVM refuses leaves its code interpreted, and the output the
/// same, so only `--stats` tells. The programs come from
/// `ProgramGenerator`; a failing seed reproduces with
/// `KALEIDOSCOPE_SEED=N swift test --filter Differential` (the program is printed too).
///
/// CI runs a fixed set of seeds; `scripts/soak.sh` runs thousands
/// (`KALEIDOSCOPE_SOAK_FROM`/`KALEIDOSCOPE_SOAK_COUNT`).
@Suite("Differential")
struct DifferentialTests {
  static let seeds: [UInt64] = {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["KALEIDOSCOPE_SEED"].flatMap(UInt64.init) { return [seed] }
    let from = environment["KALEIDOSCOPE_SOAK_FROM"].flatMap(UInt64.init) ?? 1
    let count = environment["KALEIDOSCOPE_SOAK_COUNT"].flatMap(UInt64.init) ?? 24
    return Array(from..<from + count)
  }()

  /// Native executables are slower to make (a link each); the soak builds every tenth.
  static func buildsNative(_ seed: UInt64) -> Bool {
    seeds.count <= 100 || seed % 10 == 0
  }

  @Test("engines agree", arguments: seeds)
  func enginesAgree(seed: UInt64) throws {
    var generator = ProgramGenerator(seed: seed)
    let program = generator.program()
    let input = generator.input
    let directory = NSTemporaryDirectory() + "ks-diff-\(getpid())-\(seed)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let source = "\(directory)/program.ks"
    try program.write(toFile: source, atomically: true, encoding: .utf8)
    let semantics = seed % 2 == 0 ? "--for-semantics=current" : "--for-semantics=legacy"

    let reference = try Tool.run(["run", "--tier", "interp", semantics, source], stdin: input)
    // A program may stop at a runtime error (an index out of bounds, the end of the input),
    // but never fail otherwise.
    try #require(
      reference.status == 0 || (reference.status == 1 && reference.stderr.contains("runtime error: ")),
      "seed \(seed): the interpreter failed: \(reference.stderr)\n\(program)")
    var engines: [(String, Tool.Output)] = [
      ("jit -O0", try Tool.run(["run", "--tier", "jit", "-O0", semantics, source], stdin: input)),
      ("jit -O3", try Tool.run(["run", "--tier", "jit", "-O3", semantics, source], stdin: input)),
    ]
    for (name, calls, iterations) in [("early", 1, 0), ("late", 50, 5), ("never", Int.max, Int.max)] {
      let tiers = [
        "--tier", "auto", "--stats", "--tier-wait", "--tier-hot-calls", "\(calls)", "--tier-hot-iterations", "\(iterations)",
      ]
      engines.append(("tiers, promoted \(name)", try Tool.run(["run"] + tiers + [semantics, source], stdin: input)))
    }
    // Again, its machine code from the cache of the first run.
    let early = ["--tier", "auto", "--stats", "--tier-wait", "--tier-hot-calls", "1", "--tier-hot-iterations", "0"]
    let cache = ["KALEIDOSCOPE_CACHE": "\(directory)/cache"]
    let filling = try Tool.run(["run"] + early + [semantics, source], stdin: input, environment: cache)
    let cached = try Tool.run(["run"] + early + [semantics, source], stdin: input, environment: cache)
    // A run ended by a runtime error prints no statistics.
    let first = Self.modules(filling.stderr)
    let second = Self.modules(cached.stderr)
    #expect(
      first == nil && second == nil || first?.cached == 0 && second?.all == first?.all && second?.cached == first?.all,
      "seed \(seed): not every module came from the cache the second time\n\(filling.stderr)\n\(cached.stderr)\n\(program)")
    engines.append(("tiers, promoted early, from the cache", cached))
    let background = ["--tier", "auto", "--stats", "--tier-hot-calls", "1", "--tier-hot-iterations", "0"]
    engines.append(("tiers in the background", try Tool.run(["run"] + background + [semantics, source], stdin: input)))
    if Self.buildsNative(seed) {
      let executable = "\(directory)/program"
      let build = try Tool.run(["build", "-O2", semantics, source, "-o", executable])
      try #require(build.status == 0, "seed \(seed): build failed: \(build.stderr)\n\(program)")
      engines.append(("native -O2", try Tool.runExecutable(executable, stdin: input)))
    }
    for (engine, output) in engines {
      // The tiers' statistics come last on standard error; LLVM must have compiled all
      // they asked for (a failure would leave code interpreted, silently but for them).
      let (stderr, stats) = Self.separatingStatistics(output.stderr)
      #expect(!stats.contains("not compiled"), "seed \(seed): \(engine): \(stats)\n\(program)")
      #expect(
        output.stdout == reference.stdout && stderr == reference.stderr && output.status == reference.status,
        """
        seed \(seed): \(engine) differs from the interpreter
        --- interpreter (status \(reference.status))
        \(reference.stdout)\(reference.stderr)
        --- \(engine) (status \(output.status))
        \(output.stdout)\(stderr)
        --- program
        \(program)
        """)
    }
  }

  /// The modules of a tiered run's `--stats`, and how many of them came from the cache.
  static func modules(_ stderr: String) -> (all: Int, cached: Int)? {
    guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("stats: machine code: ") }) else {
      return nil
    }
    let all = line.firstMatch(of: /\((\d+) modules?/).flatMap { Int($0.1) } ?? 0
    let cached = line.firstMatch(of: /(\d+) from the cache/).flatMap { Int($0.1) } ?? 0
    return (all, cached)
  }

  /// Standard error without the lines of `--stats`, and those lines.
  static func separatingStatistics(_ stderr: String) -> (rest: String, stats: String) {
    let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
    let stats = lines.filter { $0.hasPrefix("stats: ") }
    let rest = lines.filter { !$0.hasPrefix("stats: ") }
    return (rest.joined(separator: "\n"), stats.joined(separator: "\n"))
  }

  @Test func programsUseEveryConstruct() {
    var text = ""
    for seed in 1...48 as ClosedRange<UInt64> {
      var generator = ProgramGenerator(seed: seed)
      text += generator.program()
    }
    let constructs = [
      "def unary", "def binary", "(for ", "(var ", "(if ", " = ", "/ ", "putchard(", "f0(", "var g", "[] = [", "[] = \"",
      "len(", "[]) ", "readd()", "getchard()", "] = ",
    ]
    for construct in constructs {
      #expect(text.contains(construct), "no generated program contains \(construct)")
    }
  }
}
