import Foundation
import Testing

/// A run with the machine-code cache files the loops it handed to the compiler, and the
/// next run of the same program asks for them, in that order, as soon as it reaches them
/// (`LoopHistory`): with the same output, its modules from the cache, and a history that is
/// damaged or another program's ignored.
@Suite("run following the last run's loops")
struct LoopHistoryTests {
  /// A fill loop, then a sort whose inner loop gets hot from a long run and whose outer
  /// loop then from the entries into the inner one's code: three loops handed over in turn.
  static let sort = """
    def binary : 1 (x y) y
    extern fmod(x, y)
    var v[2500]
    def fill() var s = 11 in for i = 0, i < len(v) in (s = fmod(s * 48271, 2147483647)) : (v[i] = s)
    def sort()
      for i = 0, i < len(v) in
        for j = 0, j < len(v) - 1 - i in
          if v[j + 1] < v[j] then (var t = v[j] in (v[j] = v[j + 1]) : (v[j + 1] = t)) else 0
    fill() : sort()
    v[0]
    v[2499]
    """

  /// The tutorial's Mandelbrot drawn twice: a hot function (`mandelconverger`) handed over
  /// between its loops, which a run that follows the last must keep in its place (a run
  /// that asked for the loops at once made modules the cache did not hold).
  static let tutorialMandelbrot = """
    extern putchard(c)
    def unary!(v) if v then 0 else 1
    def unary-(v) 0 - v
    def binary> 10 (LHS, RHS) RHS < LHS
    def binary| 5 (LHS, RHS) if LHS then 1 else if RHS then 1 else 0
    def binary& 6 (LHS, RHS) if !LHS then 0 else !!RHS
    def binary~ 9 (LHS, RHS) !(LHS < RHS | LHS > RHS)
    def binary: 1 (x, y) y
    def printdensity(d)
      if d > 8 then
        putchard(32)
      else if d > 4 then
        putchard(46)
      else if d > 2 then
        putchard(43)
      else
        putchard(42)
    def mandelconverger(real, imag, iters, creal, cimag)
      if iters > 255 | (real * real + imag * imag > 4) then
        iters
      else
        mandelconverger(
          real * real - imag * imag + creal,
          2 * real * imag + cimag,
          iters + 1,
          creal,
          cimag
        )
    def mandelconverge(real, imag) mandelconverger(real, imag, 0, real, imag)
    def mandelhelp(xmin, xmax, xstep, ymin, ymax, ystep)
      for y = ymin, y < ymax, ystep in
        ((for x = xmin, x < xmax, xstep in printdensity(mandelconverge(x, y))) : putchard(10))
    def mandel(realstart, imagstart, realmag, imagmag)
      mandelhelp(
        realstart,
        realstart + realmag * 160,
        realmag,
        imagstart,
        imagstart + imagmag * 80,
        imagmag
      )
    for k = 0, k < 2 in mandel(-2.3, -1.3, 0.0125, 0.03)
    """

  /// `run --stats` with the policy's usual thresholds; the compiler waited for, so that
  /// each run hands the same loops over in the same order.
  static let arguments = ["run", "--stats", "--tier-wait", "-"]

  static func count(_ pattern: Regex<(Substring, Substring)>, in output: Tool.Output) -> Int {
    MachineCodeCacheRunTests.machineCode(output).firstMatch(of: pattern).flatMap { Int($0.1) } ?? 0
  }

  static func histories(in cache: MachineCodeCacheRunTests.Directory) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasSuffix(".loops") }
  }

  /// The sort's loops are all asked for early; of the Mandelbrot's, those handed over on
  /// their own (not with a hot function, nor as general code).
  @Test(arguments: [(sort, true), (tutorialMandelbrot, false)])
  func aSecondRunAsksForTheFirstRunsLoopsAtOnce(program: String, everyLoop: Bool) throws {
    let cache = MachineCodeCacheRunTests.Directory()
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: program)
    let first = try Tool.run(Self.arguments, stdin: program, environment: cache.environment)
    #expect(first.stdout == reference.stdout)
    let loops = Self.count(/, (\d+) loops? \(/, in: first)
    #expect(loops >= 2, "\(first.stderr)")
    #expect(Self.count(/(\d+) asked for as the last run did/, in: first) == 0)
    #expect(Self.histories(in: cache).count == 1)
    for _ in 0..<2 {
      let again = try Tool.run(Self.arguments, stdin: program, environment: cache.environment)
      #expect(again.stdout == reference.stdout)
      let asked = Self.count(/(\d+) asked for as the last run did/, in: again)
      #expect(everyLoop ? asked == loops : asked > 0, "\(again.stderr)")
      let modules = Self.count(/\((\d+) modules?/, in: again)
      #expect(Self.count(/(\d+) from the cache/, in: again) == modules, "\(again.stderr)")
    }
  }

  /// A history whose bytes were changed, or whose loops are not this program's, is not
  /// followed: the run goes by the usual rules and files its own.
  @Test(arguments: [true, false])
  func aHistoryThatDoesNotFitIsIgnored(damaged: Bool) throws {
    let cache = MachineCodeCacheRunTests.Directory()
    let reference = try Tool.run(["run", "--tier", "interp", "-"], stdin: Self.sort)
    _ = try Tool.run(Self.arguments, stdin: Self.sort, environment: cache.environment)
    let name = try #require(Self.histories(in: cache).first)
    let url = URL(fileURLWithPath: "\(cache.path)/\(name)")
    var bytes = try [UInt8](Data(contentsOf: url))
    let magic = Array("kaleidoscope loops 2\n".utf8).count
    if damaged {
      bytes[magic + 4] ^= 0x01
    } else {
      // One hand-over, of loop 1000 (this program has three loops), with its hash.
      bytes = Array(bytes[..<magic]) + [2, 0, 0, 0, 0, 0, 0, 0, 0xe8, 0x03, 0, 0]
      let hash = MachineCodeCacheRunTests.fnv1a(bytes)
      withUnsafeBytes(of: hash.littleEndian) { bytes += $0 }
    }
    try Data(bytes).write(to: url)
    let ignored = try Tool.run(Self.arguments, stdin: Self.sort, environment: cache.environment)
    #expect(ignored.stdout == reference.stdout)
    #expect(Self.count(/(\d+) asked for as the last run did/, in: ignored) == 0, "\(ignored.stderr)")
    let after = try Tool.run(Self.arguments, stdin: Self.sort, environment: cache.environment)
    #expect(Self.count(/(\d+) asked for as the last run did/, in: after) > 0, "\(after.stderr)")
  }
}
