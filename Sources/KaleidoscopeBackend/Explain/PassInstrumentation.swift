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
  private static let printChanged: Void = {
    let arguments = ["kaleidoscope", "-print-changed"]
    var pointers = arguments.map { strdup($0).map { UnsafePointer($0) } }
    defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
    LLVMParseCommandLineOptions(Int32(pointers.count), &pointers, nil)
  }()

  /// Runs `body` with `-print-changed` on and returns what it wrote to standard error, which
  /// goes to a temporary file meanwhile.
  static func capture(_ body: () throws -> Void) throws -> String {
    _ = printChanged
    guard let file = tmpfile() else { throw BackendError.system("cannot make a temporary file for the pass log") }
    defer { fclose(file) }
    fflush(nil)
    let saved = dup(STDERR_FILENO)
    dup2(fileno(file), STDERR_FILENO)
    do {
      defer {
        dup2(saved, STDERR_FILENO)
        close(saved)
      }
      try body()
    }
    rewind(file)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
