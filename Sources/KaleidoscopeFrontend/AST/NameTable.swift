/// An interned identifier: a small integer standing for one spelling.
///
/// Names compare and hash as integers, and dense tables can be indexed by them, so later
/// phases never compare strings.
public struct Name: Hashable, Sendable, Comparable {
  public let index: Int32

  public init(index: Int32) {
    self.index = index
  }

  public static func < (lhs: Name, rhs: Name) -> Bool { lhs.index < rhs.index }
}

/// Interns identifier spellings (byte strings) into `Name`s.
///
/// An open-addressing hash table over the bytes themselves: interning an identifier the lexer
/// found costs a hash and, usually, one comparison of lengths, hashes and bytes, with no
/// `String` built.
public struct NameTable: Sendable {
  /// The bytes of every name, back to back; name `i` is `storage[starts[i]..<starts[i + 1]]`.
  private var storage: [UInt8] = []
  private var starts: [Int32] = [0]
  /// Hash slots, a power of two of them: a name's hash in the high 32 bits and its index + 1
  /// in the low ones, 0 when empty. Keeping the hash in the slot lets most mismatches be
  /// rejected without reading the name.
  private var slots: [UInt64] = Array(repeating: 0, count: 64)

  public init() {}

  /// How many distinct names there are; every `Name` has `index < count`.
  public var count: Int { starts.count - 1 }

  /// The name spelled by `bytes`, adding it if it is new.
  public mutating func intern(_ bytes: ArraySlice<UInt8>) -> Name {
    bytes.withUnsafeBufferPointer { intern($0) }
  }

  /// The name spelled by `bytes`, adding it if it is new.
  public mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Name {
    let hash = Self.hash(bytes)
    if let existing = find(bytes, hash: hash) { return existing.name }
    let name = Name(index: Int32(count))
    storage.append(contentsOf: bytes)
    starts.append(Int32(storage.count))
    place(name.index, hash: hash)
    if count * 2 > slots.count { grow() }
    return name
  }

  public mutating func intern(_ text: String) -> Name {
    intern(Array(text.utf8)[...])
  }

  /// The name spelled `text`, if it has been interned.
  public func lookup(_ text: String) -> Name? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { find($0, hash: Self.hash($0))?.name }
  }

  /// The spelling of a name.
  public subscript(name: Name) -> String {
    let index = Int(name.index)
    return String(decoding: storage[Int(starts[index])..<Int(starts[index + 1])], as: UTF8.self)
  }

  /// The interned name with these bytes and hash, if any.
  @inline(__always)
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> (name: Name, slot: Int)? {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    return storage.withUnsafeBufferPointer { storage in
      while true {
        let entry = slots[slot]
        if entry == 0 { return nil }
        if UInt32(truncatingIfNeeded: entry >> 32) == hash {
          let index = Int(UInt32(truncatingIfNeeded: entry)) - 1
          let start = Int(starts[index])
          let length = Int(starts[index + 1]) - start
          if length == bytes.count && Self.equal(storage.baseAddress! + start, bytes.baseAddress, length) {
            return (Name(index: Int32(index)), slot)
          }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Whether two byte strings of `length` bytes are equal; identifiers are short, so a loop
  /// beats a call to `memcmp`.
  private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ length: Int) -> Bool {
    guard let b else { return length == 0 }
    for offset in 0..<length where a[offset] != b[offset] { return false }
    return true
  }

  /// Puts a name in the first free slot of its probe sequence.
  private mutating func place(_ index: Int32, hash: UInt32) {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = UInt64(hash) << 32 | UInt64(index + 1)
  }

  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: old.count * 2)
    for entry in old where entry != 0 {
      place(Int32(UInt32(truncatingIfNeeded: entry)) - 1, hash: UInt32(truncatingIfNeeded: entry >> 32))
    }
  }

  /// FNV-1a: simple, and good enough for identifiers.
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return hash
  }
}
