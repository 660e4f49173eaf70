import KaleidoscopeRuntime
import Testing

/// Where the runtime puts arrays' elements: a global array's (`ks_array_new_apart`) a page
/// from any other array's, at a page offset that differs from the global array made just
/// before it; every array's zero-filled, and released by `ks_array_free`, whichever way it
/// was made.
@Suite("Array placement")
struct ArrayPlacementTests {
  static let page = 4096

  /// The bytes an array's elements take, as addresses.
  static func span(_ elements: UnsafeMutablePointer<Double>, count: Int) -> Range<UInt> {
    let start = UInt(bitPattern: elements)
    return start..<start + UInt(max(count, 1) * 8)
  }

  /// The distance between two spans that do not overlap (0 if they do).
  static func gap(_ a: Range<UInt>, _ b: Range<UInt>) -> UInt {
    a.upperBound <= b.lowerBound ? b.lowerBound - a.upperBound : a.lowerBound >= b.upperBound ? a.lowerBound - b.upperBound : 0
  }

  @Test func globalArraysLieApartFromEveryArray() {
    let counts = [80, 256, 10, 1, 0, 5_000, 3]
    var made: [(elements: UnsafeMutablePointer<Double>, count: Int, apart: Bool)] = []
    for (index, count) in counts.enumerated() {
      // Arrays made the usual way, between them, as local arrays are.
      if index % 2 == 1 { made.append((ks_array_new(UInt64(count))!, count, false)) }
      made.append((ks_array_new_apart(UInt64(count))!, count, true))
    }
    defer { for array in made { ks_array_free(array.elements) } }
    for (i, a) in made.enumerated() where a.apart {
      #expect((0..<max(a.count, 1)).allSatisfy { a.elements[$0] == 0 })
      for b in made[(i + 1)...] {
        let gap = Self.gap(Self.span(a.elements, count: a.count), Self.span(b.elements, count: b.count))
        #expect(gap >= UInt(Self.page), "\(a.count) and \(b.count) elements: \(gap) bytes apart")
      }
    }
    let offsets = made.filter(\.apart).map { UInt(bitPattern: $0.elements) % UInt(Self.page) }
    for (before, after) in zip(offsets, offsets.dropFirst()) { #expect(before != after) }
  }

  /// A compiled global array holds no elements (null) until its declaration runs, which then
  /// frees them.
  @Test func freeingNoElementsDoesNothing() {
    ks_array_free(nil)
  }
}
