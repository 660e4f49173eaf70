import Foundation
import Testing

/// Runs the built `kaleidoscope` binary, as a user would.
enum Tool {
  /// The test bundle sits next to the executable in `.build/<configuration>/`;
  /// `KALEIDOSCOPE_TOOL` names another build of it (scripts/test.sh runs these tests against
  /// the release build too, which is linked differently).
  static let executable: URL = {
    if let path = ProcessInfo.processInfo.environment["KALEIDOSCOPE_TOOL"] {
      return URL(fileURLWithPath: path)
    }
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return bundle.deletingLastPathComponent().appendingPathComponent("kaleidoscope")
  }()

  /// What a run produced.
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs any executable (a program `build` made).
  static func runExecutable(_ path: String, arguments: [String] = [], stdin: String = "", in directory: String? = nil) throws
    -> Output
  {
    try run(arguments, stdin: stdin, executable: URL(fileURLWithPath: path), in: directory)
  }

  /// Runs the tool with `arguments`, feeding `stdin`; colour is off as in CI logs, and so
  /// is the machine-code cache, unless `environment` names one: a test compiles what it
  /// tests, and leaves nothing behind.
  static func run(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:], executable: URL = Tool.executable,
    in directory: String? = nil
  ) throws -> Output {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env["KALEIDOSCOPE_CACHE"] = "off"
    env.merge(environment) { _, new in new }
    return try Subprocess.run(
      executable.path, arguments: arguments, environment: env, directory: directory, stdin: Data(stdin.utf8))
  }
}

/// Spawns a child with a clean signal state.
///
/// Foundation's `Process` lets the child inherit the test runner's blocked
/// signal mask (SIGTERM, SIGINT, SIGCHLD-adjacent signals…), which makes gdb
/// hang and hides the runtime's fault handling; `posix_spawn` with
/// `POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF` gives every child the
/// signal state it would have when started from a shell.
enum Subprocess {
  /// Serialises pipe creation with spawning (see `ClosingPipe`).
  static let spawnLock = NSLock()

  /// A child that exits without reading all of its input closes the pipe; writing to it
  /// then must fail with EPIPE rather than kill the test process with SIGPIPE.
  private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  static func run(
    _ path: String, arguments: [String], environment: [String: String], directory: String?, stdin: Data
  ) throws -> Tool.Output {
    _ = ignoringBrokenPipes
    let input = try ClosingPipe()
    let output = try ClosingPipe()
    let error = try ClosingPipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input.fileHandleForReading.fileDescriptor, 0)
    posix_spawn_file_actions_adddup2(&actions, output.fileHandleForWriting.fileDescriptor, 1)
    posix_spawn_file_actions_adddup2(&actions, error.fileHandleForWriting.fileDescriptor, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    // Glibc's addchdir_np is not visible to Swift; coreutils' `env -C` changes directory.
    let command = directory.map { ["/usr/bin/env", "-C", $0, path] } ?? [path]
    let argv = (command + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let status = spawnLock.withLock { posix_spawn(&pid, command[0], &actions, &attributes, argv, envp) }
    try input.fileHandleForReading.close()
    try output.fileHandleForWriting.close()
    try error.fileHandleForWriting.close()
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
    // Read both pipes concurrently so a large output cannot block the child.
    nonisolated(unsafe) var errorData = Data()
    let errorReader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
    errorReader.start()
    // The child may not read it all (or at all): a broken pipe is not an error here.
    try? input.fileHandleForWriting.write(contentsOf: stdin)
    try input.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    var waitStatus: Int32 = 0
    while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
    while !errorReader.isFinished { usleep(1000) }
    let signal = waitStatus & 0x7F
    return Tool.Output(
      status: signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self))
  }
}

/// A pipe whose ends are close-on-exec from birth, so that children spawned
/// concurrently by other tests never inherit (and hold open) each other's ends.
struct ClosingPipe {
  let fileHandleForReading: FileHandle
  let fileHandleForWriting: FileHandle

  init() throws {
    var fds: [Int32] = [0, 0]
    // Swift's Glibc module hides pipe2; pipe + FD_CLOEXEC under the lock that
    // every spawn also takes is just as safe.
    let created = Subprocess.spawnLock.withLock { () -> Bool in
      guard pipe(&fds) == 0 else { return false }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      return true
    }
    guard created else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    fileHandleForReading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
    fileHandleForWriting = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
  }
}

/// Test data next to the test sources.
enum TestData {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// The `.ks` files of a subdirectory, sorted, as names without the extension.
  static func programs(in subdirectory: String) -> [String] {
    let url = directory.appendingPathComponent(subdirectory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".ks") }.map { String($0.dropLast(3)) }.sorted()
  }

  static func path(_ subdirectory: String, _ name: String) -> String {
    directory.appendingPathComponent(subdirectory).appendingPathComponent(name).path
  }

  /// Compares `actual` with the golden file, or rewrites the file when
  /// `KALEIDOSCOPE_UPDATE_GOLDEN=1` (then review the diff before committing).
  static func expectMatchesGolden(
    _ actual: String, _ subdirectory: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let path = path(subdirectory, name)
    if ProcessInfo.processInfo.environment["KALEIDOSCOPE_UPDATE_GOLDEN"] == "1" {
      _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
      return
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
      Issue.record("missing golden file \(path); run with KALEIDOSCOPE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
      return
    }
    #expect(actual == expected, "\(name) differs from its golden file", sourceLocation: sourceLocation)
  }
}
