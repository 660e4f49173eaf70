import Testing

@testable import KaleidoscopeFrontend

/// `check` cuts a large file into parts checked at the same time (`Frontend.diagnose`); the
/// parts are joined when the guesses they were checked under hold, and the file is checked in
/// one go when they do not. Either way it must report exactly what checking in one go reports.
@Suite("Checking a file in parts")
struct PartsCheckingTests {
  /// The offsets at which a line starts with `def` or `extern`: where a file may be cut.
  static func itemStarts(_ file: SourceFile) -> [Int] {
    var starts: [Int] = []
    var offset = 1
    while let start = Parser.itemStart(in: file, atOrAfter: offset) {
      starts.append(start)
      offset = start + 1
    }
    return starts
  }

  static func rendered(_ diagnostics: DiagnosticBag) -> [String] {
    let renderer = DiagnosticRenderer(useColor: false)
    return diagnostics.all.map(renderer.render)
  }

  /// The file's diagnostics checked in one go, and cut at each place it may be cut (or at
  /// `limit` of those places, spread evenly, the first and last included).
  static func expectSameAtEverySplit(_ file: SourceFile, limit: Int = .max, _ comment: Comment? = nil) {
    LargeStack.run {
      let inOneGo = Frontend.diagnose(file, splittingAt: []).all
      let starts = spread(itemStarts(file), limit: limit)
      for split in starts {
        #expect(Frontend.diagnose(file, splittingAt: [split]).all == inOneGo, comment)
      }
      if starts.count >= 3 {
        let three = [starts[0], starts[starts.count / 2], starts[starts.count - 1]]
        #expect(Frontend.diagnose(file, splittingAt: Array(Set(three)).sorted()).all == inOneGo, comment)
      }
    }
  }

  /// At most `limit` of `elements`, spread evenly, the first and last included.
  static func spread(_ elements: [Int], limit: Int) -> [Int] {
    guard elements.count > limit else { return elements }
    guard limit > 1 else { return Array(elements.prefix(limit)) }
    return (0..<limit).map { elements[$0 * (elements.count - 1) / (limit - 1)] }
  }

  /// Operators defined in one part and used in the next, calls both ways across the cut,
  /// and errors of every kind on both sides: the parts join, with nothing checked twice.
  static let joinable = """
    def binary ~ 15 (x y) x * 0.5 + y
    def unary !(v) if v then 0 else 1
    def f(a) g(a) ~ 1 + later(a)
    extern sin(x)
    def broken(x) (x +
    def typo(x) fo(x)
    def g(x) f(x) ~ !x + sin(x) + missing(2)
    def h(x) nope(x) + f(1, 2) + y + broken(1) ~ 3
    def later(a b) a
    h(1) ~ 2
    1 $ 2
    """

  @Test func partsJoinAndReportWhatOneGoReports() throws {
    let file = SourceFile(name: "t.ks", text: Self.joinable)
    let whole = Self.rendered(Frontend.diagnose(file, splittingAt: []))
    #expect(whole.count >= 8)
    #expect(whole.sorted() == Self.rendered(Frontend.analyze(file).diagnostics).sorted())
    let broken = try #require(Self.joinable.utf8.firstRange(of: "(x +\n".utf8))
    for split in Self.itemStarts(file) {
      let joined = LargeStack.run { Frontend.diagnoseInParts(file, splittingAt: [split]) }
      if split == Self.joinable.utf8.distance(from: Self.joinable.utf8.startIndex, to: broken.upperBound) {
        #expect(joined == nil, "the first part ends inside `broken`")
      } else {
        #expect(joined.map(Self.rendered) == whole, "cut at \(split)")
        let parts = LargeStack.run { Frontend.checkParts(file, splittingAt: [split]) }
        #expect(CheckedPart.gathered(parts) == nil, "some uses resolve nowhere: the parts must be joined")
      }
    }
  }

  /// Mistakes of every kind but uses that resolve nowhere, and uses across the cut both ways:
  /// the parts' diagnostics need only be gathered, and joining them finds the same.
  static let gatherable = """
    def binary ~ 15 (x y) x * 0.5 + y
    def unary !(v) if v then 0 else 1
    def f(a) g(a) ~ 1 + later(a, 2)
    extern sin(x)
    def broken(x) (x +
    def dup(x x) x
    def g(x) f(x) ~ !x + sin(x)
    def binary @ 300 (a b) a
    def h(x) 1 = x
    def dup2(y) dup(1, y) + y + h(2) ~ 2
    def later(a b) a
    def binary + 5 (a b) a
    h(1) ~ 2
    """

  @Test func partsWhoseUsesAllResolveAreGatheredNotJoined() throws {
    let file = SourceFile(name: "t.ks", text: Self.gatherable)
    let whole = Self.rendered(Frontend.diagnose(file, splittingAt: []))
    #expect(whole.count == 5)
    #expect(whole.sorted() == Self.rendered(Frontend.analyze(file).diagnostics).sorted())
    let broken = try #require(Self.gatherable.utf8.firstRange(of: "(x +\n".utf8))
    let afterBroken = Self.gatherable.utf8.distance(from: Self.gatherable.utf8.startIndex, to: broken.upperBound)
    for split in Self.itemStarts(file) where split != afterBroken {
      let parts = LargeStack.run { Frontend.checkParts(file, splittingAt: [split]) }
      #expect(CheckedPart.gathered(parts).map(Self.rendered) == whole, "cut at \(split)")
      #expect(CheckedPart.joined(parts).map(Self.rendered) == whole, "cut at \(split)")
    }
  }

  @Test(
    "parts that cannot be joined are checked in one go",
    arguments: [
      ("def f(x) x\n", "def f(y) y\nf(1, 2)"),  // the same name declared in both parts
      ("extern sin(x)\n", "extern sin(x)\nsin(1)"),  // even an identical redeclaration
      ("def f(x) (x +\n", "def g(x) x"),  // the first part ends inside an item...
      ("1 +\n", "def g(x) x"),  // ... including a top-level expression
      ("f(1) binary ~ 5 (a b) a\n", "def g(x) x ~ 1"),  // the guessed operators are wrong
      ("def binary ~ 5 (a b) a\n", "def g(x) x ~ 1 ~ 2\n# binary ^ 5"),  // (a guess can be right)
    ])
  func unjoinableParts(first: String, second: String) {
    let file = SourceFile(name: "t.ks", text: first + second)
    let split = first.utf8.count
    let joined = LargeStack.run { Frontend.diagnoseInParts(file, splittingAt: [split]) }
    let canJoin = first.hasPrefix("def binary")
    #expect((joined != nil) == canJoin)
    let inParts = LargeStack.run { Frontend.diagnose(file, splittingAt: [split]) }
    #expect(Self.rendered(inParts) == Self.rendered(Frontend.diagnose(file, splittingAt: [])))
  }

  @Test func largeFilesAreCutAtItemStarts() {
    let item = "def f(x) x + 1\n"
    let count = 4 * Frontend.minimumPartSize / item.utf8.count
    let file = SourceFile(
      name: "t.ks", text: (0..<count).map { "def f\($0)(x) x + 1\n" }.joined() + "f0(1, 2)\nf1(nope)\n")
    let diagnostics = LargeStack.run { Frontend.diagnose(file) }
    #expect(Self.rendered(diagnostics) == Self.rendered(Frontend.diagnose(file, splittingAt: [])))
    #expect(diagnostics.errorCount == 2)
  }
}
