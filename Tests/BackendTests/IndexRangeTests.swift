import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// Indices proved in bounds from the counters' ranges (`IRGenerator+IndexRanges.swift`), in
/// the rest of a running loop, whose outer counters come from the frame: a window's reads
/// in an image whose sizes are constants need no check; a read that can reach the length,
/// or one from a bound with no known range, keeps its check.
@Suite("Index ranges")
struct IndexRangeTests {
  /// `W` and `H` are globals 0 and 1, `image` and `out` arrays 2 and 3 of length 24; `fill`'s
  /// innermost loop is continued.
  static let globals = "var W = 6, H = 4, image[24], out[24]\n"

  static let cases: [(testDescription: String, fill: String, fixed: Bool, checks: Int)] = [
    (
      "a 3×3 window inside the image",
      "def fill(n) for y = 1, y < H - 1 in for x = 1, x < W - 1 in "
        + "for dy = 0 - 1, dy < 2 in for dx = 0 - 1, dx < 2 in out[y * W + x] = image[(y + dy) * W + x + dx]",
      true, 0
    ),
    (
      "the same window, its offsets negated",
      "def fill(n) for y = 1, y < H - 1 in for x = 1, x < W - 1 in "
        + "for dy = -1, dy < 2 in for dx = -1, dx < 2 in out[y * W + x] = image[(y + dy) * W + x + dx]",
      true, 0
    ),
    (
      "a row past the last",
      "def fill(n) for y = 1, y < H in for x = 1, x < W - 1 in "
        + "for dy = 0 - 1, dy < 2 in for dx = 0 - 1, dx < 2 in out[y * W + x] = image[(y + dy) * W + x + dx]",
      true, 1
    ),
    (
      "a column before the first",
      "def fill(n) for y = 1, y < H - 1 in for x = 0, x < W - 1 in "
        + "for dy = 0 - 1, dy < 2 in for dx = 0 - 1, dx < 2 in out[y * W + x] = image[(y + dy) * W + x + dx]",
      true, 1
    ),
    (
      "sizes that may change",
      "def fill(n) for y = 1, y < H - 1 in for x = 1, x < W - 1 in "
        + "for dy = 0 - 1, dy < 2 in for dx = 0 - 1, dx < 2 in out[y * W + x] = image[(y + dy) * W + x + dx]",
      false, 2
    ),
    ("a bound from a parameter", "def fill(n) for y = 0, y < n in for x = 0, x < W in out[y * W + x] = y", true, 1),
    ("every element", "def fill(n) for y = 0, y < H in for x = 0, x < W in out[y * W + x] = y", true, 0),
    ("one past the last", "def fill(n) for y = 0, y < H in for x = 0, x < W in out[y * W + x + 1] = y", true, 1),
  ]

  @Test(arguments: cases)
  func checksLeft(case: (testDescription: String, fill: String, fixed: Bool, checks: Int)) throws {
    var fixed = IRGenerator.FixedGlobals()
    if `case`.fixed {
      fixed.numbers = [0: 6, 1: 4]
      fixed.arrays = [2: 24, 3: 24]
    }
    let ir = try LoopContinuationTests.innerLoopContinuation(
      of: "def binary : 1 (x y) y\n\(Self.globals)\(`case`.fill)\nfill(4)\n", fixed: fixed)
    let function = try #require(ir.components(separatedBy: "define i32 @tier.loop(").last)
    #expect(function.components(separatedBy: ", label %index.error").count - 1 == `case`.checks, "\(ir)")
  }
}
