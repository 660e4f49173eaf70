import KaleidoscopeFrontend
import TestSupport

@testable import KaleidoscopeBackend

/// The differential tests' generated programs that check, for tests that ask whether the
/// generator exercises an analysis at all.
enum GeneratedPrograms {
  static func checked(seeds: ClosedRange<UInt64>) -> [CheckedProgram] {
    seeds.compactMap { seed in
      var generator = ProgramGenerator(seed: seed)
      let result = Pipeline.check(SourceFile(name: "generated.ks", text: generator.program()))
      return result.diagnostics.hasErrors ? nil : result.program
    }
  }
}
