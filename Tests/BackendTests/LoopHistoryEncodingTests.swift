import Testing

@testable import KaleidoscopeBackend

/// How `LoopHistory` files each hand-over in the cache: every kind reads back as itself, and
/// a group that is no hand-over, or names a loop or function the program lacks, reads as
/// none (the whole history is then ignored).
@Suite("Loop history's encoding")
struct LoopHistoryEncodingTests {
  static let handOvers: [LoopHistory.HandOver] = [
    .loop(0, inside: []), .loop(4, inside: [5, 6]), .function(2, loop: nil), .function(0, loop: 3), .general(7),
  ]

  @Test(arguments: handOvers)
  func aHandOverReadsBackAsItself(handOver: LoopHistory.HandOver) {
    let group = LoopHistory.group(of: handOver)
    #expect(LoopHistory.handOver(from: group, loops: 8, functions: 3) == handOver)
  }

  @Test(
    arguments: [
      [0], [3, 1], [0, 8], [0, 1, 8], [0, -1], [1, 3], [1, 0, 1, 2], [1, 0, 9], [2, 1, 2], [2, 8],
    ] as [[Int32]])
  func aGroupThatIsNoHandOverOfTheProgramReadsAsNone(group: [Int32]) {
    #expect(LoopHistory.handOver(from: group, loops: 8, functions: 3) == nil)
  }
}
