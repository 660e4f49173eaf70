import Foundation
import Testing

@testable import KaleidoscopeBackend

/// The machine-code cache's files: an entry is found under its own key only, a damaged or
/// misplaced one is a miss, the directory must be private, and the oldest entries go first.
@Suite("Machine-code cache")
struct MachineCodeCacheTests {
  /// A fresh directory for one test, removed after it.
  final class Directory {
    let path = NSTemporaryDirectory() + "ks-cache-\(getpid())-\(UUID().uuidString)"
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  static let key = Array("header\nmodule text".utf8)
  static let object: [UInt8] = (0..<200).map { UInt8($0 % 251) }

  static func store(_ object: [UInt8], for key: [UInt8], in cache: MachineCodeCache) {
    object.withUnsafeBytes { cache.store($0, for: key) }
  }

  static func entries(of cache: MachineCodeCache) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter { $0.hasSuffix(".o") }.sorted()
  }

  @Test func anEntryIsFoundUnderItsKeyOnly() throws {
    let directory = Directory()
    let cache = try #require(MachineCodeCache(directory: directory.path + "/a/b"))
    #expect(cache.object(for: Self.key) == nil)
    Self.store(Self.object, for: Self.key, in: cache)
    #expect(cache.object(for: Self.key) == Self.object)
    #expect(cache.object(for: Self.key + [0]) == nil)
    #expect(try Self.entries(of: cache).count == 1)
    // Written again, the entry is replaced, not doubled.
    Self.store(Self.object.reversed(), for: Self.key, in: cache)
    #expect(cache.object(for: Self.key) == Self.object.reversed())
    #expect(try Self.entries(of: cache).count == 1)
  }

  /// An entry under another key's file name (a hash collision) is not that key's.
  @Test func anEntryUnderAnotherNameIsAMiss() throws {
    let directory = Directory()
    let cache = try #require(MachineCodeCache(directory: directory.path))
    // As long as the key, so that only the bytes tell them apart.
    let other = Self.key.dropLast() + Array("X".utf8)
    Self.store(Self.object, for: other, in: cache)
    let misplaced = try #require(try Self.entries(of: cache).first)
    Self.store(Self.object, for: Self.key, in: cache)
    let name = try #require(try Self.entries(of: cache).first { $0 != misplaced })
    try FileManager.default.removeItem(atPath: "\(cache.directory)/\(name)")
    try FileManager.default.moveItem(atPath: "\(cache.directory)/\(misplaced)", toPath: "\(cache.directory)/\(name)")
    #expect(cache.object(for: Self.key) == nil)
  }

  /// A byte changed anywhere, or the file cut short, and the entry is a miss.
  @Test(arguments: [0, 40, 80, -1, -2])
  func aDamagedEntryIsAMiss(damage: Int) throws {
    let directory = Directory()
    let cache = try #require(MachineCodeCache(directory: directory.path))
    Self.store(Self.object, for: Self.key, in: cache)
    let path = "\(cache.directory)/\(try #require(try Self.entries(of: cache).first))"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    if damage >= 0 {
      bytes[bytes.count - 1 - damage] ^= 0x20
    } else {
      bytes.removeLast(-damage * 50)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(cache.object(for: Self.key) == nil)
  }

  /// A program's loops are filed under a name of their own, read back as they were, and
  /// read as none once any byte is changed or the file cut short.
  @Test func aProgramsLoopsReadBackOrNotAtAll() throws {
    let directory = Directory()
    let cache = try #require(MachineCodeCache(directory: directory.path))
    let policy = TierPolicy(hotCalls: 100, hotIterations: 4096)
    let path = cache.loopHistoryPath(of: Array("1 + 2".utf8), optimization: .standard, policy: policy)
    #expect(path != cache.loopHistoryPath(of: Array("1 + 3".utf8), optimization: .standard, policy: policy))
    #expect(path != cache.loopHistoryPath(of: Array("1 + 2".utf8), optimization: .none, policy: policy))
    #expect(cache.loopGroups(at: path) == nil)
    let groups: [[Int32]] = [[0], [2, 1, 3], [70_000]]
    cache.store(loopGroups: groups, at: path)
    #expect(cache.loopGroups(at: path) == groups)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    for damage in [0, 21, 25, 40, bytes.count - 1] {
      var damaged = bytes
      damaged[damage] ^= 0x10
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      #expect(cache.loopGroups(at: path) == nil, "byte \(damage)")
    }
    try Data(bytes.dropLast(4)).write(to: URL(fileURLWithPath: path))
    #expect(cache.loopGroups(at: path) == nil)
  }

  /// Code read from the cache runs: a directory others may write is refused, and so is a
  /// file where the directory should be.
  @Test func aDirectoryOthersMayWriteIsRefused() throws {
    let directory = Directory()
    #expect(FileManager.default.createFile(atPath: directory.path, contents: Data()))
    #expect(MachineCodeCache(directory: directory.path) == nil)
    try FileManager.default.removeItem(atPath: directory.path)
    try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
    #expect(chmod(directory.path, 0o777) == 0)
    #expect(MachineCodeCache(directory: directory.path) == nil)
    #expect(chmod(directory.path, 0o700) == 0)
    #expect(MachineCodeCache(directory: directory.path) != nil)
  }

  @Test func theEnvironmentChoosesTheDirectory() {
    let home = NSTemporaryDirectory() + "ks-home-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: home) }
    let cases: [([String: String], String?)] = [
      (["KALEIDOSCOPE_CACHE": "off", "HOME": home], nil),
      (["KALEIDOSCOPE_CACHE": home + "/mine", "HOME": home], home + "/mine"),
      (["XDG_CACHE_HOME": home + "/xdg", "HOME": home], home + "/xdg/kaleidoscope/machine-code"),
      (["XDG_CACHE_HOME": "relative", "HOME": home], home + "/.cache/kaleidoscope/machine-code"),
      ([:], nil),
    ]
    for (environment, expected) in cases {
      #expect(MachineCodeCache.standard { environment[$0] }?.directory == expected, "\(environment)")
    }
  }

  /// Past its capacity, the cache removes the entries used longest ago, down to three
  /// quarters of it.
  @Test func theLeastRecentlyUsedGoFirst() throws {
    let directory = Directory()
    let entry = Self.object.count + Self.key.count + 64
    let cache = try #require(MachineCodeCache(directory: directory.path, capacity: entry * 4))
    let keys = (0..<6).map { Self.key + [UInt8($0)] }
    for key in keys { Self.store(Self.object, for: key, in: cache) }
    // Used in this order, a second apart.
    let names = try Self.entries(of: cache)
    for (age, key) in keys.enumerated() {
      let name = try #require(names.first { Self.entryKey(at: "\(cache.directory)/\($0)") == key })
      let used = timespec(tv_sec: time(nil) - 100 + age, tv_nsec: 0)
      var times = [used, used]
      #expect(utimensat(AT_FDCWD, "\(cache.directory)/\(name)", &times, 0) == 0)
    }
    cache.trim()
    let left = try Self.entries(of: cache).compactMap { Self.entryKey(at: "\(cache.directory)/\($0)") }
    #expect(Set(left) == Set(keys.suffix(3)))
  }

  /// A program's loops count toward the capacity, and go by the same rule as objects.
  @Test func aProgramsLoopsGoLikeAnObject() throws {
    let directory = Directory()
    let entry = Self.object.count + Self.key.count + 64
    let cache = try #require(MachineCodeCache(directory: directory.path, capacity: entry * 4))
    let policy = TierPolicy()
    let loops = (0..<2).map { cache.loopHistoryPath(of: [UInt8($0)], optimization: .standard, policy: policy) }
    for path in loops { cache.store(loopGroups: [Array(repeating: 7, count: entry / 4)], at: path) }
    for key in (0..<3).map({ Self.key + [UInt8($0)] }) { Self.store(Self.object, for: key, in: cache) }
    // The first program's loops used longest ago, the second's most recently.
    for (path, age) in zip(loops, [200, 0]) {
      let used = timespec(tv_sec: time(nil) - age, tv_nsec: 0)
      var times = [used, used]
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
    for name in try Self.entries(of: cache) {
      let used = timespec(tv_sec: time(nil) - 100, tv_nsec: 0)
      var times = [used, used]
      #expect(utimensat(AT_FDCWD, "\(cache.directory)/\(name)", &times, 0) == 0)
    }
    cache.trim()
    #expect(!FileManager.default.fileExists(atPath: loops[0]))
    #expect(FileManager.default.fileExists(atPath: loops[1]))
  }

  /// What a writer that died left (a new file, never renamed) goes an hour on; an entry
  /// does not go while the cache is within its capacity.
  @Test func whatADeadWriterLeftGoesAnHourOn() throws {
    let directory = Directory()
    let cache = try #require(MachineCodeCache(directory: directory.path))
    Self.store(Self.object, for: Self.key, in: cache)
    let entry = try #require(try Self.entries(of: cache).first)
    for (name, age) in [("0123456789abcdef.o.AbCdEf", 7200), ("fedcba9876543210.o.XyZ123", 60)] {
      let path = "\(cache.directory)/\(name)"
      #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
      let then = timespec(tv_sec: time(nil) - age, tv_nsec: 0)
      var times = [then, then]
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
    cache.trim()
    let left = try FileManager.default.contentsOfDirectory(atPath: cache.directory).sorted()
    #expect(left == [entry, "fedcba9876543210.o.XyZ123"].sorted())
  }

  /// The key an entry holds (its layout: a line, three 8-byte counts, the key, the object).
  static func entryKey(at path: String) -> [UInt8]? {
    guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
      let newline = bytes.firstIndex(of: 10)
    else { return nil }
    let start = newline + 1 + 24
    let count = (0..<8).reduce(0) { $0 | Int(bytes[newline + 1 + $1]) << (8 * $1) }
    return Array(bytes[start..<start + count])
  }
}
