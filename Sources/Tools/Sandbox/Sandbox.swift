import Dispatch
import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// Why a sandboxed run could not start.
public struct SandboxError: Error, CustomStringConvertible {
  public var operation: String
  public var code: Int32
  public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// A pipe whose ends close when the process runs another program (`O_CLOEXEC`); the child's
/// ends are duplicated onto its standard streams, which stay open.
private struct Pipe {
  let read: Int32
  let write: Int32

  init() throws(SandboxError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SandboxError(operation: "pipe", code: errno) }
    read = ends[0]
    write = ends[1]
    _ = fcntl(read, F_SETFD, FD_CLOEXEC)
    _ = fcntl(write, F_SETFD, FD_CLOEXEC)
  }
}

/// Waits for a child to end on a thread of its own, so that the caller can wait with a
/// deadline.
private final class ExitWatcher: @unchecked Sendable {
  let finished = DispatchSemaphore(value: 0)
  /// The wait status; read after `finished`.
  private(set) var status: Int32 = 0

  init(_ pid: pid_t) {
    Thread.start {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      self.status = status
      self.finished.signal()
    }
  }
}

/// Runs an untrusted program in a process of its own (`kaleidoscope run --sandboxed`), which
/// limits itself before the program starts (CPU, memory, no files, a seccomp filter; see
/// CSandbox), while this side enforces the wall-clock and output limits. `run --sandbox` and
/// the playground use it.
public enum Sandbox {
  /// The limits of one run (SPEC §6).
  public struct Limits: Sendable {
    public var cpuSeconds = 2
    public var wallSeconds = 5.0
    public var memoryBytes = 256 << 20
    /// Of standard output and of standard error, each.
    public var outputBytes = 64 << 10
    /// Of standard error alone, when it carries more than messages (a trace); nil:
    /// `outputBytes`.
    public var errorBytes: Int?

    public init() {}
  }

  /// A program to run, and how.
  public struct Request: Sendable {
    public var source: [UInt8]
    /// The name diagnostics give the source.
    public var name: String
    public var stdin: [UInt8] = []
    /// `jit` or `interp`.
    public var tier = Tier.jit
    public var optimization = 2
    public var forSemantics = ForSemantics.current
    public var quiet = false
    /// Try what the sandbox must refuse instead of running the program (the tests).
    public var probe = false
    /// Instead of running the program, print one of its views (the playground's panes).
    public var view: View?
    /// The target triple of the `asm` view; nil for this machine.
    public var target: String?
    /// For the `ir` view: a diff from the IR at -O0 to the IR at `optimization`.
    public var diffFromUnoptimized = false
    /// For the `passes` and `cfg` views: only this function (its IR name).
    public var function: String?
    /// For the `cfg` view: the graph of the machine code for `target`, not of the IR.
    public var graphsMachineCode = false
    /// Instead of a program, `source` is a graph in DOT to draw as SVG with Graphviz, in a
    /// limited process (not sealed: it runs `dot`).
    public var drawsGraph = false
    /// Diagnostics as JSON lines (`DiagnosticJSON`) instead of clang's text.
    public var jsonDiagnostics = false
    /// Run in the interpreter and record at most this many steps (`POST /api/trace`): the
    /// trace is the last line of standard error, after `traceMarker`.
    public var traceSteps: Int?

    public init(source: [UInt8], name: String) {
      self.source = source
      self.name = name
    }
  }

  /// What the run did.
  public struct Result: Sendable, Codable, Equatable {
    /// The process's exit status, or 128 + the signal that ended it.
    public var exitCode: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    /// The program used up its CPU time or its wall-clock time, and was stopped.
    public var timedOut: Bool
    public var cpuExhausted: Bool
    /// It wrote more than the output limit, and was stopped.
    public var truncated: Bool
    public var milliseconds: Double
  }

  /// The hidden option of `run` that makes a process the sandboxed side.
  public static let childOption = "--sandboxed"
  /// The hidden subcommand whose process prints a view of a program, sandboxed.
  public static let viewCommand = "sandboxed-view"
  /// The hidden subcommand whose process draws a graph with Graphviz, limited.
  public static let drawCommand = "limited-draw"
  /// What starts the line of standard error that carries a trace.
  public static let traceMarker = "\u{1}trace "

  /// The command line of the sandboxed side: a drawing's, a view's (`ChildView`) or a
  /// run's (`ChildRun`).
  static func arguments(for request: Request, limits: Limits) -> [String] {
    if request.drawsGraph {
      let tail = CommandTail(
        cpuSeconds: limits.cpuSeconds, memoryBytes: limits.memoryBytes, optimization: request.optimization,
        jsonDiagnostics: request.jsonDiagnostics, name: request.name)
      return ["kaleidoscope", drawCommand] + tail.words
    }
    if let view = request.view { return ChildView(request, view: view, limits: limits).arguments }
    return ChildRun(request, limits: limits).arguments
  }

  /// `run(_:limits:tool:)` on a thread of its own, for callers that must not block.
  public static func run(_ request: Request, limits: Limits = Limits(), tool: String) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      Thread.start {
        do throws(SandboxError) {
          continuation.resume(returning: try run(request, limits: limits, tool: tool))
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  /// Runs `request` with the tool at `tool` (this executable) under `limits`.
  public static func run(_ request: Request, limits: Limits = Limits(), tool: String) throws(SandboxError) -> Result {
    signal(SIGPIPE, SIG_IGN)  // the program may stop reading its input
    let arguments = arguments(for: request, limits: limits)
    let input = try Pipe()
    let output = try Pipe()
    let errors = try Pipe()
    let start = DispatchTime.now()
    let pid = try spawn(tool, arguments, input: input.read, output: output.write, error: errors.write)
    for descriptor in [input.read, output.write, errors.write] { close(descriptor) }
    let exit = ExitWatcher(pid)
    let readers = DispatchGroup()
    let stdout = CappedReader(output.read, limit: limits.outputBytes) { kill(pid, SIGKILL) }
    let stderr = CappedReader(errors.read, limit: limits.errorBytes ?? limits.outputBytes) { kill(pid, SIGKILL) }
    stdout.start(in: readers)
    stderr.start(in: readers)
    Thread.start {
      writeAll(SandboxInput.frame(source: request.source, stdin: request.stdin), to: input.write)
      close(input.write)
    }
    var wallExhausted = false
    if exit.finished.wait(timeout: start + limits.wallSeconds) == .timedOut {
      wallExhausted = true
      kill(pid, SIGKILL)
      exit.finished.wait()
    }
    readers.wait()
    close(output.read)
    close(errors.read)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    let status = exit.status
    let signalled = status & 0x7f != 0
    let signal = status & 0x7f
    let cpuExhausted = signalled && signal == SIGXCPU
    return Result(
      exitCode: signalled ? 128 + signal : (status >> 8) & 0xff, stdout: stdout.bytes, stderr: stderr.bytes,
      timedOut: wallExhausted || cpuExhausted, cpuExhausted: cpuExhausted,
      truncated: stdout.overflowed || stderr.overflowed, milliseconds: elapsed)
  }

  /// Starts `path` with `arguments`, its standard streams on the descriptors given.
  private static func spawn(
    _ path: String, _ arguments: [String], input: Int32, output: Int32, error: Int32
  ) throws(SandboxError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, error, 2)
    // The caller's thread may block or ignore signals (a server's threads do); the child
    // starts with none blocked and every one at its default, so SIGXCPU ends it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard result == 0 else { throw SandboxError(operation: "posix_spawn", code: result) }
    return pid
  }

  /// Writes `bytes` to `descriptor`, giving up when the reader has gone.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      written += count
    }
  }
}

/// Reads a pipe to its end on a thread of its own, keeping at most `limit` bytes; more than
/// that calls `overflow` (which stops the writer) once.
private final class CappedReader: @unchecked Sendable {
  private let descriptor: Int32
  private let limit: Int
  private let overflow: () -> Void
  /// Written by the reading thread only, read after the group has waited for it.
  private(set) var bytes: [UInt8] = []
  private(set) var overflowed = false

  init(_ descriptor: Int32, limit: Int, overflow: @escaping () -> Void) {
    self.descriptor = descriptor
    self.limit = limit
    self.overflow = overflow
  }

  func start(in group: DispatchGroup) {
    group.enter()
    Thread.start {
      self.readToEnd()
      group.leave()
    }
  }

  private func readToEnd() {
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      let room = limit - bytes.count
      bytes += buffer[0..<min(count, max(0, room))]
      if count > room && !overflowed {
        overflowed = true
        overflow()
      }
    }
  }
}

/// Threads for blocking work: Dispatch's global queues add a thread for a blocked one only
/// after a delay, which every run would wait for.
private enum Thread {
  /// The closure a thread runs, boxed to pass through `pthread_create`'s pointer.
  final class Body {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }

  static func start(_ body: @escaping () -> Void) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
        body.run()
        return nil
      }, context)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Body>.fromOpaque(context).release()
      body()
    }
  }
}

extension Sandbox.Request {
  /// Everything that decides the answer, as bytes (the playground's result cache hashes
  /// them with the tool's identity): a field added to the request must be added here.
  public var cacheIdentity: [UInt8] {
    let options: [String] = [
      "name=\(name)", "tier=\(tier.rawValue)", "O=\(optimization)", "for=\(forSemantics.rawValue)", "quiet=\(quiet)",
      "probe=\(probe)", "view=\(view?.rawValue ?? "-")", "target=\(target ?? "-")", "diff=\(diffFromUnoptimized)",
      "function=\(function ?? "-")", "asm=\(graphsMachineCode)", "json=\(jsonDiagnostics)", "draw=\(drawsGraph)",
      "trace=\(traceSteps.map(String.init) ?? "-")",
    ]
    // Lengths first, so that no two requests give the same bytes.
    return Array((options.joined(separator: "\n") + "\nsource=\(source.count)\n").utf8) + source
      + Array("\nstdin=\(stdin.count)\n".utf8) + stdin
  }
}
