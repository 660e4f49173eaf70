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

  /// Reads the input. A file that cannot be read is reported as clang reports it, exit 1.
  func load() throws -> SourceFile {
    try Self.load(file)
  }

  /// Reads `path`, or standard input for `-`; reports a failure and ends with status 1.
  static func load(_ path: String) throws -> SourceFile {
    do {
      return path == "-" ? try SourceReader.loadStandardInput() : try SourceReader.load(path: path)
    } catch {
      Terminal.writeError("error: \(error)\n")
      throw ExitCode.failure
    }
  }
}
