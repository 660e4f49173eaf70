import KaleidoscopeFrontend
import TestSupport

/// Parses and checks source text, on a large stack as the tool does.
func analyze(_ file: SourceFile) -> FrontendResult {
  LargeStack.run { Frontend.check(file) }
}

/// The diagnostics as (marker offset, message) pairs in source order, for compact expectations.
func errors(of result: FrontendResult) -> [(Int, DiagnosticMessage)] {
  result.diagnostics.sorted.map { ($0.range.start, $0.message) }
}
