import CLLVM

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// LLVM's pass instrumentation, for `ir --passes`: `-print-changed` makes every pipeline
/// write the IR each pass changed to standard error, and this reads it back.
///
/// LLVM's options are the process's, set once and never unset, so only a process that runs
/// no other pipeline afterwards turns them on: the `ir` command, or the playground's
/// sandboxed child that computes the view.
enum PassInstrumentation {
  /// Turns `-print-changed` on for the rest of the process.
  private static let printChanged: Void = LLVMOptions.set(["-print-changed"])

  /// Runs `body` with `-print-changed` on and returns what it wrote to standard error, which
  /// goes to `logFile` (a new one when nil) meanwhile.
  static func capture(into logFile: PassLogFile? = nil, _ body: () throws -> Void) throws -> String {
    _ = printChanged
    let file = logFile ?? PassLogFile()
    guard let stream = file.stream, file.standardError >= 0 else {
      throw BackendError.system("cannot make a temporary file for the pass log")
    }
    fflush(nil)
    dup2(fileno(stream), STDERR_FILENO)
    do {
      defer { dup2(file.standardError, STDERR_FILENO) }
      try body()
    }
    rewind(stream)
    return Subprocess.readRest(of: stream)
  }
}

/// A temporary file for LLVM's pass log, and a copy of the standard error descriptor to
/// put back, opened ahead of time by a process that will not be allowed to open either when
/// the passes run (the playground's sandboxed view): `capture` then opens nothing.
public final class PassLogFile {
  /// The descriptors it holds.
  public static let descriptors: Int32 = 2

  let stream: UnsafeMutablePointer<FILE>?
  let standardError: Int32

  public init() {
    stream = tmpfile()
    standardError = dup(STDERR_FILENO)
  }

  deinit {
    if let stream { fclose(stream) }
    if standardError >= 0 { close(standardError) }
  }
}
