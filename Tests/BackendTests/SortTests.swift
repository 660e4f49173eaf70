import CSort
import TestSupport
import Testing

/// `ks_sort`, the release tool's qsort (`--wrap=qsort`): a stable natural merge sort.
@Suite struct SortTests {
  /// Input shapes: the runs the sort looks for, and what defeats them.
  enum Shape: CaseIterable {
    case random, fewDistinct, ascending, descending, sawtooth, concatenatedRuns, organPipe
  }

  /// Element sizes: qsort's callers sort records of any size (LLVM's fold tables: 12 bytes).
  static let sizes = [6, 8, 12, 24, 80]
  static let counts = [0, 1, 2, 3, 15, 16, 17, 100, 1_000, 8_019]

  /// A key for element `index` of `count` in `shape` (ties are frequent where they matter).
  static func key(_ index: Int, of count: Int, in shape: Shape, random: inout SplitMix64) -> UInt16 {
    switch shape {
    case .random: UInt16(truncatingIfNeeded: random.next())
    case .fewDistinct: UInt16(random.next() % 4)
    case .ascending: UInt16(index / 3)
    case .descending: UInt16((count - index) / 3)
    case .sawtooth: UInt16(index % 37)
    case .concatenatedRuns: UInt16((index % (count / 12 + 1)) * 5 + index / (count / 12 + 1))
    case .organPipe: UInt16(min(index, count - index))
    }
  }

  @Test(arguments: Shape.allCases, sizes)
  func sortsStablyLikeQsortPromises(shape: Shape, size: Int) {
    var random = SplitMix64(seed: UInt64(size) &* 31 &+ UInt64(Shape.allCases.firstIndex(of: shape)!))
    for count in Self.counts {
      // Each element: a 2-byte key, then its original index (4 bytes), then padding.
      let keys = (0..<count).map { Self.key($0, of: count, in: shape, random: &random) }
      var bytes = [UInt8](repeating: 0xa5, count: count * size)
      for (index, key) in keys.enumerated() {
        withUnsafeBytes(of: key.littleEndian) { bytes.replaceSubrange(index * size..<index * size + 2, with: $0) }
        withUnsafeBytes(of: UInt32(index).littleEndian) {
          bytes.replaceSubrange(index * size + 2..<index * size + 6, with: $0)
        }
      }
      bytes.withUnsafeMutableBytes { buffer in
        ks_sort(buffer.baseAddress, count, size) { left, right in
          let a = left!.loadUnaligned(as: UInt16.self), b = right!.loadUnaligned(as: UInt16.self)
          return a < b ? -1 : a > b ? 1 : 0
        }
      }
      let expected = (0..<count).sorted { (keys[$0], $0) < (keys[$1], $1) }
      let actual = (0..<count).map { position in
        bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: position * size + 2, as: UInt32.self)) }
      }
      #expect(actual == expected, "\(shape), \(count) elements of \(size) bytes")
      let padding = (0..<count).allSatisfy { position in bytes[position * size + 6..<(position + 1) * size].allSatisfy { $0 == 0xa5 } }
      #expect(padding, "\(shape), \(count) elements of \(size) bytes: the bytes after the key and index moved with them")
    }
  }
}
