#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a source file could not be read, worded as clang words it: `cannot open 'x.ks': No
/// such file or directory`, `cannot read 'examples': Is a directory`.
public struct SourceReadError: Error, Sendable, CustomStringConvertible {
  public let description: String
}

/// Reads whole files and streams into `SourceFile`s. Every command, the REPL's `:load` and the
/// tools read sources through here, so they fail alike.
public enum SourceReader {
  /// The file at `path`, named as given.
  public static func load(path: String) throws(SourceReadError) -> SourceFile {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw failure("open", path) }
    defer { close(descriptor) }
    guard let bytes = readAll(descriptor) else { throw failure("read", path) }
    return SourceFile(name: path, bytes: bytes)
  }

  /// Everything on standard input, named `<stdin>`.
  public static func loadStandardInput() throws(SourceReadError) -> SourceFile {
    guard let bytes = readAll(STDIN_FILENO) else { throw failure("read", "<stdin>") }
    return SourceFile(name: "<stdin>", bytes: bytes)
  }

  private static func failure(_ action: String, _ path: String) -> SourceReadError {
    SourceReadError(description: "cannot \(action) '\(path)': \(String(cString: strerror(errno)))")
  }

  /// Everything `descriptor` has to read, or nil when reading fails (a directory fails here,
  /// not at `open`). A regular file is read straight into an array sized from `fstat`; a pipe,
  /// or a file that grew, in chunks after that.
  static func readAll(_ descriptor: Int32) -> [UInt8]? {
    var status = stat()
    let size = fstat(descriptor, &status) == 0 ? max(0, Int(status.st_size)) : 0
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
      while count < buffer.count {
        let read = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        if read < 0 && errno == EINTR { continue }
        if read < 0 { failed = true }
        if read <= 0 { return }
        count += read
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while !failed {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { failed = true }
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return failed ? nil : bytes
  }

  /// Asks the kernel to back the whole 2 MiB pages of a large buffer, not yet touched, with
  /// huge pages, so that reading a large file faults in a few pages instead of thousands.
  private static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    let hugePage = 2 << 20
    guard let base = buffer.baseAddress, buffer.count >= 2 * hugePage else { return }
    let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
    let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
    guard end > start else { return }
    _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
  }
}
