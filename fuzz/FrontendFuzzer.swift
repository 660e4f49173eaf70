import KaleidoscopeFormat
// libFuzzer entry point for the front end: lexer, parser, sema, diagnostic rendering, the
// printers and the formatter (which must be idempotent), on arbitrary bytes. Built by fuzz/build.sh as one module with the front end's
// sources. Any crash, trap, hang or ASan report is a bug; the input becomes a regression
// test (Tests/FrontendTests/Regressions/).
import KaleidoscopeFrontend

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontend(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // The fuzzer runs on the main thread, whose stack fuzz/run.sh raises (`ulimit -s`), as
  // the tool raises its own with a large-stack thread: no thread per input.
  do {
    let file = SourceFile(name: "fuzz.ks", bytes: bytes)
    let result = Frontend.check(file)
    let renderer = DiagnosticRenderer(useColor: false)
    for diagnostic in result.diagnostics.all { _ = renderer.render(diagnostic) }
    _ = ASTDump.render(result.program.tree)
    _ = ASTTreeDrawing.render(result.program.tree)
    _ = TokenListing.render(Lexer.tokenize(file), in: file)
    if case .formatted(let once) = Formatter.format(file) {
      guard case .formatted(let twice) = Formatter.format(SourceFile(name: "fuzz.ks", bytes: once)), twice == once
      else { fatalError("formatting the formatted text changed it") }
    }
  }
  return 0
}
