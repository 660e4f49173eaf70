import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// `-O0` to `-O3`.
struct OptimizationOption: ParsableArguments {
  @Option(
    name: .customShort("O", allowingJoined: true),
    help: ArgumentHelp("Optimisation level, 0 to 3.", valueName: "level"))
  var level: Int?

  func validate() throws {
    if let level, !(0...3).contains(level) {
      throw ValidationError("the optimisation level must be 0, 1, 2 or 3, not \(level)")
    }
  }

  func resolved(default fallback: OptimizationLevel) -> OptimizationLevel {
    level.flatMap(OptimizationLevel.init(rawValue:)) ?? fallback
  }
}

extension ForSemantics: ExpressibleByArgument {}

/// `--for-semantics`.
struct SemanticsOptions: ParsableArguments {
  @Option(
    name: .customLong("for-semantics"),
    help: "The for loop: 'current' (pre-tested, as in the upstream tutorial) or 'legacy' (do-while, as in LLVM 19's reference).")
  var forSemantics: ForSemantics = .current
}
