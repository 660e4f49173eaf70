import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// Links executables with the C compiler found on the machine: the program's object, the
/// runtime (compiled from the source the tool carries) and libm.
public enum Linker {
  /// Candidates, in order: the system's `cc`, then clang (the Swift toolchain ships one),
  /// then gcc. `$CC` overrides.
  static let candidates = ["cc", "clang", "gcc", "/opt/swift/usr/bin/clang"]

  /// The C compiler to use, or `nil` if there is none.
  public static func findCompiler() -> String? {
    if let override = getenv("CC").map({ String(cString: $0) }), !override.isEmpty { return override }
    for candidate in candidates {
      if candidate.hasPrefix("/") {
        if access(candidate, X_OK) == 0 { return candidate }
        continue
      }
      let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
      for directory in path.split(separator: ":") where access("\(directory)/\(candidate)", X_OK) == 0 {
        return "\(directory)/\(candidate)"
      }
    }
    return nil
  }

  /// Links `object` into the executable `output`.
  public static func link(object: String, output: String, workDirectory: String) throws {
    guard let compiler = findCompiler() else {
      throw BackendError.system(
        "no C compiler found to link with (tried $CC, \(candidates.joined(separator: ", "))); install one with: apt-get install -y gcc"
      )
    }
    let runtimeSource = "\(workDirectory)/kaleidoscope_runtime.c"
    try writeFile(runtimeSource, contents: String(cString: ks_runtime_source()))
    try writeFile("\(workDirectory)/KaleidoscopeRuntime.h", contents: String(cString: ks_runtime_header()))
    // The runtime is compiled without debug information: a debugger should step over it,
    // and mixing the C compiler's DWARF with LLVM's confuses gdb's address ranges.
    let arguments = [compiler, "-O2", "-w", "-o", output, object, runtimeSource, "-lm"]
    let (status, errors) = try run(arguments)
    guard status == 0 else {
      throw BackendError.system(
        "linking with \(compiler) failed:\n\(String(errors.reversed().drop(while: \.isNewline).reversed()))")
    }
  }

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
    // The linker starts with the signal state it would have from a shell,
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
