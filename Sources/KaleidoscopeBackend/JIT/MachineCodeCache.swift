import CLLVM
import Glibc

/// Machine code kept from one run to the next: the object file LLVM made of a module, filed
/// under a key that is everything the object was made from (`key(of:header:)`), so that a
/// later run that builds the same module links the object instead of compiling it again.
///
/// A module's IR names what differs between runs (globals' cells, arrays' elements) rather
/// than holding addresses, so the same program yields the same modules. Each entry is one
/// file, written whole under another name and renamed into place, so a reader sees an
/// entry complete or not at all, whichever processes write. A reader trusts an entry only
/// if its key is the one asked for, byte for byte, and its object's checksum holds; any
/// other file is a miss. The directory is the user's own (mode 0700, not writable by
/// others): code read from it runs.
public final class MachineCodeCache: Sendable {
  /// The directory the entries live in.
  public let directory: String
  /// The bytes the entries may take together before the oldest are removed.
  let capacity: Int

  /// What starts every entry, with a version for the layout that follows.
  private static let magic = Array("kaleidoscope machine code 1\n".utf8)

  /// The cache in `directory`, which the first store makes if it is missing (a run that
  /// compiles nothing leaves no trace); nil if it is there but not safe to run code from.
  public init?(directory: String, capacity: Int = 64 << 20) {
    guard !directory.isEmpty, !Self.exists(directory) || Self.isPrivate(directory) else { return nil }
    self.directory = directory
    self.capacity = capacity
  }

  /// The cache `environment` asks for: `KALEIDOSCOPE_CACHE` names its directory, or is
  /// `off`; without it, `kaleidoscope/machine-code` under `XDG_CACHE_HOME`, or else
  /// under `~/.cache`. Nil when it is off or unusable: then every module is compiled.
  public static func standard(environment: (String) -> String?) -> MachineCodeCache? {
    if let asked = environment("KALEIDOSCOPE_CACHE") {
      return asked == "off" ? nil : MachineCodeCache(directory: asked)
    }
    let base =
      environment("XDG_CACHE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? environment("HOME").map { $0 + "/.cache" }
    return base.flatMap { MachineCodeCache(directory: $0 + "/kaleidoscope/machine-code") }
  }

  /// What every key of modules optimised at `optimization` and compiled by `machine` starts
  /// with: this executable (whose LLVM and passes make the objects), the level (the IR
  /// before optimising is the same at every level) and the target.
  static func keyHeader(for machine: TargetMachine, optimization: OptimizationLevel) -> [UInt8] {
    let description = "\(machine.triple)\n\(machine.cpu)\n\(machine.features)"
    return Array("\(executableIdentity)\n-O\(optimization.rawValue)\n\(description)\n".utf8)
  }

  /// The key of `module`: `header` (`keyHeader(for:optimization:)`), then its IR, as it is
  /// before optimising.
  static func key(of module: Module, header: [UInt8]) -> [UInt8] {
    let text = LLVMPrintModuleToString(module.reference)!
    defer { LLVMDisposeMessage(text) }
    return header + UnsafeRawBufferPointer(start: text, count: strlen(text))
  }

  /// This executable's device, inode, size and modification time: a rebuild, with another
  /// LLVM or other passes, changes it.
  static let executableIdentity: String = {
    var status = stat()
    guard stat("/proc/self/exe", &status) == 0 else { return "unknown" }
    return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
  }()

  // MARK: - Entries

  /// The object filed under `key`, or nil.
  func object(for key: [UInt8]) -> [UInt8]? {
    let path = path(for: key)
    guard let bytes = Self.read(path) else { return nil }
    let header = Self.magic.count + 24
    guard bytes.count >= header, bytes.starts(with: Self.magic) else { return nil }
    let keyCount = Self.integer(in: bytes, at: Self.magic.count)
    let objectCount = Self.integer(in: bytes, at: Self.magic.count + 8)
    let checksum = Self.integer(in: bytes, at: Self.magic.count + 16)
    guard keyCount == key.count, objectCount == bytes.count - header - key.count,
      bytes[header..<header + key.count].elementsEqual(key)
    else { return nil }
    let object = Array(bytes[(header + key.count)...])
    guard Self.checksum(object) == checksum else { return nil }
    // Entries are removed oldest first, and one in use is new again.
    _ = utimensat(AT_FDCWD, path, nil, 0)
    return object
  }

  /// Files `object` under `key`, replacing any entry there, and now and then trims the
  /// cache (`trim`). A failure leaves the cache as it was.
  func store(_ object: UnsafeRawBufferPointer, for key: [UInt8]) {
    var entry = Self.magic
    for value in [UInt64(key.count), UInt64(object.count), Self.checksum(object)] {
      withUnsafeBytes(of: value.littleEndian) { entry += $0 }
    }
    entry += key
    entry += object
    guard Self.makeDirectory(directory), Self.isPrivate(directory), Self.write(entry, to: path(for: key)) else { return }
    // About one store in 32 looks at the whole cache.
    if Self.checksum(key) % 32 == 0 { trim() }
  }

  /// The file of `key`: its hash, in hex.
  private func path(for key: [UInt8]) -> String {
    let hex = String(Self.checksum(key), radix: 16)
    return "\(directory)/\(String(repeating: "0", count: 16 - hex.count))\(hex).o"
  }

  /// FNV-1a, 64 bits: a file name and a check against damage, not a defence against
  /// anyone (only the user can write the directory).
  static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  static func integer(in bytes: [UInt8], at offset: Int) -> UInt64 {
    (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }
}
