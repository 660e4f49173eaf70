import KaleidoscopeBackend
import KaleidoscopeRuntime
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

/// What `run --stats` prints: the tier, what was compiled and how long it took, and when the
/// program first wrote something.
struct RunStatistics {
  let tier: Tier
  let started: UInt64
  /// What tiered execution did (`--tier auto`).
  var tiers: TierStatistics?
  /// When the whole program was compiled (`--tier jit`).
  var compiled: UInt64?

  init(tier: Tier, started: UInt64) {
    self.tier = tier
    self.started = started
  }

  /// CLOCK_MONOTONIC in nanoseconds, the runtime's clock for the first output.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  func summary() -> String {
    let milliseconds = { (nanoseconds: UInt64) in Self.milliseconds(Double(nanoseconds) / 1e6) }
    var lines = ["tier: \(tier.rawValue)"]
    switch tier {
    case .auto:
      if let figures = tiers?.figures {
        lines.append(
          "machine code: \(Self.count(figures.functions, "function")), \(Self.count(figures.loops, "loop")) "
            + "(\(Self.count(figures.modules, "module"))\(Self.ahead(figures))"
            + "\(figures.modulesCached > 0 ? ", \(figures.modulesCached) from the cache" : "")"
            + "\(figures.loopsAskedAsLastRun > 0 ? ", \(figures.loopsAskedAsLastRun) asked for as the last run did" : ""), "
            + "\(milliseconds(figures.nanoseconds)) compiling)")
        lines.append(
          "interpreted: \(Self.count(figures.interpretedFunctions, "function")) (called at least once), "
            + "\(Self.count(figures.interpretedLoopIterations, "loop iteration"))")
        for failure in figures.failures { lines.append("not compiled (interpreted instead): \(failure)") }
      }
    case .jit:
      if let compiled { lines.append("compiled: everything reachable, in \(milliseconds(compiled - started))") }
    case .interp:
      lines.append("compiled: nothing")
    }
    let first = ks_first_output_time()
    lines.append("first output: " + (first == 0 ? "none" : "after \(milliseconds(first - started))"))
    lines.append("total: \(milliseconds(Self.now() - started))")
    return lines.map { "stats: \($0)\n" }.joined()
  }

  /// `1 loop`, `2 loops`.
  /// `, 2 compiled ahead (1 while the interpreter waited)`, then `, 1 by the interpreter's
  /// thread` for loops it compiled while the compiler thread was busy, or nothing.
  static func ahead(_ figures: TierStatistics.Figures) -> String {
    var text = ""
    if figures.modulesAhead > 0 {
      let waiting = figures.modulesWhileWaiting
      text += ", \(figures.modulesAhead) compiled ahead" + (waiting > 0 ? " (\(waiting) while the interpreter waited)" : "")
    }
    if figures.modulesOfRunningLoops > 0 { text += ", \(figures.modulesOfRunningLoops) by the interpreter's thread" }
    return text
  }

  static func count(_ value: Int, _ noun: String) -> String {
    "\(value) \(noun)\(value == 1 ? "" : "s")"
  }

  /// `12.3 ms`.
  static func milliseconds(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) ms"
  }
}
