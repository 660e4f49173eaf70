import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// The steps the compiling commands share.
enum Driver {
  /// Parses and checks a file, printing its diagnostics; a file with errors ends the
  /// command with status 1.
  static func check(_ file: SourceFile, color: ColorChoice) throws -> CheckedProgram {
    try report(LargeStack.run { Frontend.analyze(file) }, color: color)
  }

  /// `check` on the calling thread, which must have a large stack (`backEnd`'s).
  static func checkOnThisThread(_ file: SourceFile, color: ColorChoice) throws -> CheckedProgram {
    try report(Frontend.analyze(file), color: color)
  }

  private static func report(_ result: SemaResult, color: ColorChoice) throws -> CheckedProgram {
    if DiagnosticReporter(color: color).report(result.diagnostics) {
      throw ExitCode.failure
    }
    return result.program
  }

  /// Runs back-end work on the large stack, turning its errors into a one-line message and
  /// status 1.
  static func backEnd<T>(stackSize: Int = LargeStack.defaultSize, _ work: () throws -> T) throws -> T {
    // An optional and an error, not a `Result`: instantiating `Result<T, any Error>` costs the
    // Swift runtime a scan of every protocol conformance in the binary (0.16 million
    // instructions before the back end's thread starts).
    var value: T?
    var failure: (any Error)?
    LargeStack.run(size: stackSize) {
      do { value = try work() } catch { failure = error }
    }
    switch failure {
    case nil:
      return value!
    case let error as BackendError:
      Terminal.writeError(error.description.hasPrefix("error:") ? "\(error)\n" : "error: \(error)\n")
      throw ExitCode.failure
    case let error?:
      throw error
    }
  }
}
