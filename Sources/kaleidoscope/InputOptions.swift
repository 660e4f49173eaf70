#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import ArgumentParser
import KaleidoscopeFrontend

/// The source file argument shared by the commands: a path, or `-` for standard input.
struct InputOptions: ParsableArguments {
  @Argument(help: "The source file, or '-' to read standard input.")
  var file: String

  init() {}

  init(file: String) {
    self.file = file
  }

  /// Reads the input. A file that cannot be read is reported like clang does, exit 1.
  func load() throws -> SourceFile {
    if file == "-" {
      return SourceFile(name: "<stdin>", bytes: SourceLoader.readAll(STDIN_FILENO))
    }
    let descriptor = open(file, O_RDONLY)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      Terminal.writeError("error: cannot open '\(file)': \(reason)\n")
      throw ExitCode.failure
    }
    defer { close(descriptor) }
    return SourceFile(name: file, bytes: SourceLoader.readAll(descriptor))
  }
}

/// Reads whole streams into memory.
enum SourceLoader {
  /// Everything `descriptor` has to read. A regular file is read straight into the array,
  /// sized from `fstat`, with no copying; a pipe, or a file that grew, in chunks after that.
  static func readAll(_ descriptor: Int32) -> [UInt8] {
    var status = stat()
    let size = fstat(descriptor, &status) == 0 ? max(0, Int(status.st_size)) : 0
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
      while count < buffer.count {
        let read = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        if read < 0 && errno == EINTR { continue }
        if read <= 0 { return }
        count += read
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      chunk.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
    }
    return bytes
  }

  /// Asks the kernel to back the whole 2 MiB pages of a large buffer, not yet touched, with
  /// huge pages: reading a 12 MB file then takes a few page faults instead of thousands.
  private static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    let hugePage = 2 << 20
    guard let base = buffer.baseAddress, buffer.count >= 2 * hugePage else { return }
    let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
    let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
    guard end > start else { return }
    _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
  }
}
