import Glibc

/// What a program's last run handed to the compiler, in order, kept beside the machine code
/// so that the next run of the same program asks for its loops as they start
/// (`LoopHistory`, which encodes each hand-over as a group of integers).
///
/// Each program has one file, `<hash>.loops`, named by a hash of this executable, the
/// optimisation level, the tier policy and the program's bytes. It is a hint, never trusted
/// for meaning: a loop asked for early compiles to the module its IR says, which the cache
/// then looks up by that IR as any other. A damaged file reads as none.
extension MachineCodeCache {
  /// What starts every file of loops, with a version for the layout that follows: 32-bit
  /// little-endian integers, each group's count then its members, then the FNV-1a hash of
  /// all that.
  private static let loopsMagic = Array("kaleidoscope loops 2\n".utf8)

  /// The name of the file of `program`'s loops, run at `optimization` under `policy`.
  func loopHistoryPath(of program: [UInt8], optimization: OptimizationLevel, policy: TierPolicy) -> String {
    let header = Array(
      "\(Self.executableIdentity)\n-O\(optimization.rawValue)\n\(policy.hotCalls) \(policy.hotIterations)\n".utf8)
    let hex = String(Self.checksum(header + program), radix: 16)
    return "\(directory)/\(String(repeating: "0", count: 16 - hex.count))\(hex).loops"
  }

  /// The groups filed at `path`, in order; nil if there is no such file or it is damaged.
  func loopGroups(at path: String) -> [[Int32]]? {
    guard let bytes = Self.read(path), bytes.count >= Self.loopsMagic.count + 8, bytes.starts(with: Self.loopsMagic)
    else { return nil }
    let body = bytes[Self.loopsMagic.count..<bytes.count - 8]
    guard body.count % 4 == 0, Self.checksum(bytes[..<(bytes.count - 8)]) == Self.integer(in: bytes, at: bytes.count - 8)
    else { return nil }
    var words = stride(from: body.startIndex, to: body.endIndex, by: 4).map { offset in
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }[...]
    var groups: [[Int32]] = []
    while let count = words.popFirst() {
      guard count > 0, count <= words.count else { return nil }
      groups.append(words.prefix(Int(count)).map { Int32(bitPattern: $0) })
      words = words.dropFirst(Int(count))
    }
    // Files are removed oldest first, and one in use is new again.
    _ = utimensat(AT_FDCWD, path, nil, 0)
    return groups
  }

  /// Files `groups` at `path` (`loopHistoryPath`), replacing what was there. A failure
  /// leaves the file as it was.
  func store(loopGroups groups: [[Int32]], at path: String) {
    var bytes = Self.loopsMagic
    for word in groups.flatMap({ [UInt32(truncatingIfNeeded: $0.count)] + $0.map { UInt32(bitPattern: $0) } }) {
      withUnsafeBytes(of: word.littleEndian) { bytes += $0 }
    }
    withUnsafeBytes(of: Self.checksum(bytes).littleEndian) { bytes += $0 }
    guard Self.makeDirectory(directory), Self.isPrivate(directory) else { return }
    _ = Self.write(bytes, to: path)
  }
}
