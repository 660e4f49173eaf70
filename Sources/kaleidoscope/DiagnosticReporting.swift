import KaleidoscopeFrontend

/// Prints diagnostics to standard error in clang's format, followed by clang's summary line.
struct DiagnosticReporter {
  let renderer: DiagnosticRenderer

  init(color: ColorChoice) {
    renderer = DiagnosticRenderer(useColor: Terminal.useColorOnStandardError(color))
  }

  /// Prints every diagnostic in source order; returns whether any was an error.
  @discardableResult
  func report(_ diagnostics: DiagnosticBag, summary: Bool = true) -> Bool {
    guard !diagnostics.isEmpty else { return false }
    var text = ""
    for diagnostic in diagnostics.sorted {
      text += renderer.render(diagnostic)
    }
    if summary { text += renderer.summary(errorCount: diagnostics.errorCount) }
    Terminal.writeError(text)
    return diagnostics.hasErrors
  }
}
