#if canImport(Glibc)
  import Glibc
#endif

/// Other programs the tool runs (the C compiler that links, Graphviz's `dot`, the tool
/// itself for the REPL's `:passes`), and the files it hands them.
public enum Subprocess {
  /// Writes `contents` to the file at `path`, replacing it.
  static func writeFile(_ path: String, contents: String) throws {
    guard let stream = fopen(path, "w") else {
      throw BackendError.system("cannot write '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { fclose(stream) }
    fputs(contents, stream)
  }

  /// Runs a program, returning its exit status and what it wrote to standard error.
  static func run(_ arguments: [String]) throws -> (Int32, String) {
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { throw BackendError.system("cannot create a pipe") }
    _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    // The program starts with the signal state it would have from a shell,
    // whatever the caller (a test runner, an IDE) blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var cArguments = arguments.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, environ)
    close(pipeFDs[1])
    guard status == 0 else {
      close(pipeFDs[0])
      throw BackendError.system("cannot run \(arguments[0]): \(String(cString: strerror(status)))")
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(pipeFDs[0], &buffer, buffer.count)
      if count <= 0 { break }
      output += buffer[..<count]
    }
    close(pipeFDs[0])
    var exitStatus: Int32 = 0
    waitpid(pid, &exitStatus, 0)
    let code = (exitStatus & 0x7F) == 0 ? (exitStatus >> 8) & 0xFF : 128 + (exitStatus & 0x7F)
    return (code, String(decoding: output, as: UTF8.self))
  }
}

extension Subprocess {
  /// The text of the file at `path`.
  public static func readFile(_ path: String) throws -> String {
    guard let stream = fopen(path, "r") else {
      throw BackendError.system("cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { fclose(stream) }
    return readRest(of: stream)
  }

  /// The text from `stream`'s position to its end.
  static func readRest(of stream: UnsafeMutablePointer<FILE>) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&buffer, 1, buffer.count, stream)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension Subprocess {
  /// Runs a program whose output goes where this process's goes; returns its exit status.
  public static func runShowingOutput(_ arguments: [String]) throws -> Int32 {
    var cArguments = arguments.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, arguments[0], nil, nil, &cArguments, environ)
    guard status == 0 else {
      throw BackendError.system("cannot run \(arguments[0]): \(String(cString: strerror(status)))")
    }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    return (exitStatus & 0x7F) == 0 ? (exitStatus >> 8) & 0xFF : 128 + (exitStatus & 0x7F)
  }

  /// This executable's path, to run it again.
  public static var currentExecutable: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
