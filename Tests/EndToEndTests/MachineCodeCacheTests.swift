import Foundation
import Synchronization
import Testing

/// `run` keeps the machine code it compiles in a cache (`KALEIDOSCOPE_CACHE`), and a later
/// run of the same program links it instead of compiling again: with the same output, and
/// with a damaged entry compiled again rather than trusted.
@Suite("run with the machine-code cache")
struct MachineCodeCacheRunTests {
  /// Every function and loop hot at once, compiled where the interpreter stands: the same
  /// modules in every run.
  static let promoted = ["run", "--stats", "--tier-wait", "--tier-hot-calls", "1", "--tier-hot-iterations", "0", "-"]

  /// Two functions, each compiled in a module of its own.
  static let twoModules = """
    def binary : 1 (x y) y
    extern floor(x)
    var a[8]
    def fill(n) for i = 0, i < n in a[i - 8 * floor(i / 8)] = i
    def total(n) var s = 0 in (for i = 0, i < n in s = s + a[i - 8 * floor(i / 8)]) : s
    fill(1000)
    total(1000)
    """

  /// A fresh cache directory for one test, removed after it.
  final class Directory {
    let path = NSTemporaryDirectory() + "ks-run-cache-\(getpid())-\(UUID().uuidString)"
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var environment: [String: String] { ["KALEIDOSCOPE_CACHE": path] }
    var entries: [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".o") }
    }
  }

  static func machineCode(_ output: Tool.Output) -> String {
    output.stderr.split(separator: "\n").first { $0.hasPrefix("stats: machine code: ") }.map(String.init) ?? ""
  }

  @Test(arguments: [TierTests.loopProgram, TierTests.whileLoopProgram])
  func aSecondRunLinksWhatTheFirstCompiled(program: String) throws {
    let cache = Directory()
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    let first = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(first.stdout == reference.stdout)
    #expect(!Self.machineCode(first).contains("from the cache"))
    let modules = try #require(Self.machineCode(first).firstMatch(of: /\((\d+) modules?/).flatMap { Int($0.1) })
    #expect(modules > 0)
    #expect(cache.entries.count == modules)
    let second = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(second.stdout == reference.stdout)
    #expect(Self.machineCode(second).contains("\(modules) from the cache"), "\(second.stderr)")
  }

  /// The IR before optimising is the same at every level, so the level is part of the key:
  /// a run at `-O2` after one at `-O0` compiles its own code rather than linking the
  /// unoptimised one (which made a plain `run` of matmul several times slower), and each
  /// level's is kept.
  @Test func eachOptimisationLevelHasCodeOfItsOwn() throws {
    let cache = Directory()
    let program = TierTests.loopProgram
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    for (level, cached) in [("-O0", false), ("-O2", false), ("-O2", true), ("-O0", true)] {
      let output = try Tool.run(["run", level] + Self.promoted.dropFirst(), stdin: program, environment: cache.environment)
      #expect(output.stdout == reference.stdout)
      #expect(Self.machineCode(output).contains("from the cache") == cached, "\(level): \(output.stderr)")
    }
  }

  /// An entry changed on disk is a miss: the module is compiled again and filed again.
  @Test func aDamagedEntryIsCompiledAgain() throws {
    let cache = Directory()
    let program = TierTests.loopProgram
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    _ = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    for name in cache.entries {
      let url = URL(fileURLWithPath: "\(cache.path)/\(name)")
      var bytes = try [UInt8](Data(contentsOf: url))
      bytes[bytes.count - 100] ^= 0xff
      try Data(bytes).write(to: url)
    }
    let damaged = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(damaged.stdout == reference.stdout)
    #expect(!Self.machineCode(damaged).contains("from the cache"), "\(damaged.stderr)")
    let again = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(again.stdout == reference.stdout)
    #expect(Self.machineCode(again).contains("from the cache"), "\(again.stderr)")
  }

  /// An entry whose object is not the module's (its checksum right, so only linking tells:
  /// here, each entry holds another's object, or bytes that are no object) is dropped from
  /// the JIT with whatever it defined, and the module compiled.
  @Test(arguments: [true, false])
  func anObjectThatDoesNotLinkIsCompiledAgain(swapped: Bool) throws {
    let cache = Directory()
    let program = Self.twoModules
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    _ = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    let urls = cache.entries.sorted().map { URL(fileURLWithPath: "\(cache.path)/\($0)") }
    try #require(urls.count >= 2)
    let entries = try urls.map { try Self.entry(Data(contentsOf: $0)) }
    for (index, url) in urls.enumerated() {
      let object = swapped ? entries[(index + 1) % entries.count].object : [UInt8](repeating: 0x41, count: 512)
      var bytes = entries[index].line
      for value in [UInt64(entries[index].key.count), UInt64(object.count), Self.fnv1a(object)] {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
      }
      try Data(bytes + entries[index].key + object).write(to: url)
    }
    let relinked = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(relinked.status == 0)
    #expect(relinked.stdout == reference.stdout)
    #expect(!Self.machineCode(relinked).contains("from the cache"), "\(relinked.stderr)")
    #expect(!relinked.stderr.contains("not compiled"), "\(relinked.stderr)")
  }

  /// An entry's parts: its first line, its key and its object (after three 8-byte counts).
  static func entry(_ data: Data) throws -> (line: [UInt8], key: [UInt8], object: [UInt8]) {
    let bytes = [UInt8](data)
    let header = try #require(bytes.firstIndex(of: 10)) + 1
    let keyCount = Self.integer(in: bytes, at: header)
    let key = Array(bytes[(header + 24)..<(header + 24 + keyCount)])
    return (Array(bytes[..<header]), key, Array(bytes[(header + 24 + keyCount)...]))
  }

  static func integer(in bytes: [UInt8], at offset: Int) -> Int {
    (0..<8).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
  }

  static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  /// Runs at once, each filing the same entries (written whole and renamed into place),
  /// all print what they should and leave entries that the next run links.
  @Test func runsAtOnceShareTheCache() throws {
    let cache = Directory()
    let program = Self.twoModules
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    let outputs = Mutex<[Tool.Output?]>(Array(repeating: nil, count: 4))
    let environment = cache.environment
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      let output = try? Tool.run(Self.promoted, stdin: program, environment: environment)
      outputs.withLock { $0[index] = output }
    }
    for output in outputs.withLock({ $0 }) {
      #expect(output?.stdout == reference.stdout)
    }
    let after = try Tool.run(Self.promoted, stdin: program, environment: cache.environment)
    #expect(after.stdout == reference.stdout)
    #expect(Self.machineCode(after).contains("2 modules, 2 from the cache"), "\(after.stderr)")
    #expect(cache.entries.count == 2)
  }

  /// A run that compiles nothing makes no directory; `off` keeps nothing.
  @Test func aRunThatCompilesNothingLeavesNoTrace() throws {
    let cache = Directory()
    let output = try Tool.run(["run", "-"], stdin: "1 + 2\n", environment: cache.environment)
    #expect(output.stdout == "3\n")
    #expect(!FileManager.default.fileExists(atPath: cache.path))
  }

  @Test func offKeepsNothing() throws {
    let home = Directory()
    let environment = ["KALEIDOSCOPE_CACHE": "off", "XDG_CACHE_HOME": home.path]
    let output = try Tool.run(Self.promoted, stdin: TierTests.loopProgram, environment: environment)
    #expect(output.status == 0)
    #expect(!FileManager.default.fileExists(atPath: home.path))
  }
}
