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
  static func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var status = stat()
    if fstat(descriptor, &status) == 0 && status.st_size > 0 {
      bytes.reserveCapacity(Int(status.st_size))
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
  }
}
