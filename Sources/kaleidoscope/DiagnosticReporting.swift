import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

/// Prints diagnostics to standard error in clang's format, followed by clang's summary line;
/// or, for the playground's sandboxed side, as JSON lines (`DiagnosticJSON`).
struct DiagnosticReporter {
  let renderer: DiagnosticRenderer
  let json: Bool

  init(color: ColorChoice, json: Bool = false) {
    renderer = DiagnosticRenderer(useColor: Terminal.useColorOnStandardError(color))
    self.json = json
  }

  /// Prints every diagnostic in source order; returns whether any was an error.
  @discardableResult
  func report(_ diagnostics: DiagnosticBag, summary: Bool = true) -> Bool {
    guard !diagnostics.isEmpty else { return false }
    if json {
      Terminal.writeError(DiagnosticJSON.render(diagnostics))
      return diagnostics.hasErrors
    }
    var text = ""
    for diagnostic in diagnostics.sorted {
      text += renderer.render(diagnostic)
    }
    if summary { text += renderer.summary(errorCount: diagnostics.errorCount) }
    Terminal.writeError(text)
    return diagnostics.hasErrors
  }

  /// Prints the diagnostics of a compilation and returns what it made; when there were
  /// errors, the command ends with status 1.
  func product<Product>(of compilation: Compilation<Product>) throws -> Product {
    report(compilation.diagnostics)
    guard let product = compilation.product else { throw ExitCode.failure }
    return product
  }

  /// `product(of:)` for the front end alone.
  func program(of result: FrontendResult) throws -> CheckedProgram {
    if report(result.diagnostics) { throw ExitCode.failure }
    return result.program
  }
}

/// Runs back-end work, turning its errors (LLVM's, the linker's, a file that cannot be
/// written) into a one-line message and status 1.
func reportingBackEndErrors<T>(_ work: () throws -> T) throws -> T {
  do {
    return try work()
  } catch let error as BackendError {
    Terminal.writeError(error.description.hasPrefix("error:") ? "\(error)\n" : "error: \(error)\n")
    throw ExitCode.failure
  }
}
