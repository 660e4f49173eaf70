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
/// found costs a hash and, usually, one comparison, with no `String` built.
public struct NameTable: Sendable {
  /// The bytes of every name, back to back; name `i` is `storage[starts[i]..<starts[i + 1]]`.
  private var storage: [UInt8] = []
  private var starts: [Int32] = [0]
  /// Hash slots holding a name index, or -1 when empty. The count is a power of two.
  private var slots: [Int32] = Array(repeating: -1, count: 64)

  public init() {}

  /// How many distinct names there are; every `Name` has `index < count`.
  public var count: Int { starts.count - 1 }

  /// The name spelled by `bytes`, adding it if it is new.
  public mutating func intern<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Name {
    let hash = Self.hash(bytes)
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while true {
      let index = slots[slot]
      if index < 0 { break }
      if spelling(index).elementsEqual(bytes) { return Name(index: index) }
      slot = (slot + 1) & mask
    }
    let name = Name(index: Int32(count))
    storage.append(contentsOf: bytes)
    starts.append(Int32(storage.count))
    slots[slot] = name.index
    if count * 2 > slots.count { grow() }
    return name
  }

  public mutating func intern(_ text: String) -> Name {
    intern(Array(text.utf8))
  }

  /// The name spelled `text`, if it has been interned.
  public func lookup(_ text: String) -> Name? {
    let bytes = Array(text.utf8)
    let mask = slots.count - 1
    var slot = Int(Self.hash(bytes)) & mask
    while slots[slot] >= 0 {
      if spelling(slots[slot]).elementsEqual(bytes) { return Name(index: slots[slot]) }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The spelling of a name.
  public subscript(name: Name) -> String {
    String(decoding: spelling(name.index), as: UTF8.self)
  }

  private func spelling(_ index: Int32) -> ArraySlice<UInt8> {
    storage[Int(starts[Int(index)])..<Int(starts[Int(index) + 1])]
  }

  private mutating func grow() {
    var bigger = [Int32](repeating: -1, count: slots.count * 2)
    let mask = bigger.count - 1
    for index in 0..<Int32(count) {
      var slot = Int(Self.hash(spelling(index))) & mask
      while bigger[slot] >= 0 { slot = (slot + 1) & mask }
      bigger[slot] = index
    }
    slots = bigger
  }

  /// FNV-1a: simple, and good enough for identifiers.
  private static func hash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return hash
  }
}
