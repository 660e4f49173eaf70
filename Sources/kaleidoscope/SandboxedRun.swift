import ArgumentParser
import CSandbox
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

/// `run --sandbox` and the hidden options of its two sides.
struct SandboxOptions: ParsableArguments {
  @Flag(
    name: .customLong("sandbox"),
    help: """
      Run in a sandbox, as the playground does: a process of its own with 2 s of CPU, 5 s in \
      all, 256 MiB of memory and 64 KiB of output; no files, network or processes; extern \
      only for the runtime and libm.
      """)
  var enabled = false

  /// This process is the sandboxed side.
  @Flag(name: .customLong("sandboxed"), help: .hidden)
  var isChild = false

  @Option(name: .customLong("sandbox-cpu"), help: .hidden)
  var cpuSeconds = Sandbox.Limits().cpuSeconds

  @Option(name: .customLong("sandbox-wall"), help: .hidden)
  var wallSeconds = Sandbox.Limits().wallSeconds

  @Option(name: .customLong("sandbox-memory"), help: .hidden)
  var memoryBytes = Sandbox.Limits().memoryBytes

  @Option(name: .customLong("sandbox-output"), help: .hidden)
  var outputBytes = Sandbox.Limits().outputBytes

  /// Diagnostics as JSON lines, for the playground's server.
  @Flag(name: .customLong("sandbox-json"), help: .hidden)
  var jsonDiagnostics = false

  /// Instead of running the program, try what the sandbox must refuse (tests).
  @Flag(name: .customLong("sandbox-probe"), help: .hidden)
  var probe = false

  /// Record a trace of at most this many steps (the playground's stepper).
  @Option(name: .customLong("sandbox-trace"), help: .hidden)
  var traceSteps: Int?

  /// The sandboxed side's run, as these options and `run`'s others spell it.
  func childRun(name: String, tier: Tier, options: CompileOptions) -> Sandbox.ChildRun {
    var run = Sandbox.ChildRun(name: name)
    (run.tier, run.forSemantics, run.optimization) = (tier, options.forSemantics, Int(options.optimization.rawValue))
    (run.quiet, run.probe, run.traceSteps) = (!options.printValues, probe, traceSteps)
    (run.cpuSeconds, run.memoryBytes, run.jsonDiagnostics) = (cpuSeconds, memoryBytes, jsonDiagnostics)
    return run
  }

  var limits: Sandbox.Limits {
    var limits = Sandbox.Limits()
    limits.cpuSeconds = cpuSeconds
    limits.wallSeconds = wallSeconds
    limits.memoryBytes = memoryBytes
    limits.outputBytes = outputBytes
    return limits
  }
}

/// `run --sandbox`: both sides of a sandboxed run (`Sandbox`).
enum SandboxedRun {
  /// The parent: runs the file in a sandboxed child of this executable and reports how it
  /// ended. Standard input goes to the program unless it is a terminal.
  static func parent(
    _ file: SourceFile, tier: Tier, options: CompileOptions, quiet: Bool, sandbox: SandboxOptions
  ) throws -> Never {
    var request = Sandbox.Request(source: file.bytes, name: file.name)
    request.tier = tier == .interp ? .interp : .jit
    request.optimization = Int(options.optimization.rawValue)
    request.forSemantics = options.forSemantics
    request.quiet = quiet
    request.probe = sandbox.probe
    if file.name != "<stdin>" && isatty(0) == 0 { request.stdin = readAll(0) }
    let limits = sandbox.limits
    let result: Sandbox.Result
    do {
      result = try Sandbox.run(request, limits: limits, tool: "/proc/self/exe")
    } catch {
      Terminal.writeError("error: cannot start the sandbox: \(error)\n")
      Kaleidoscope.exit(withError: ExitCode.failure)
    }
    Terminal.writeOut(bytes: result.stdout)
    result.stderr.withUnsafeBufferPointer { Terminal.write($0, to: STDERR_FILENO) }
    let stopped: String? =
      if result.cpuExhausted { "used its \(limits.cpuSeconds) s of CPU time" } else if result.timedOut {
        "ran for \(limits.wallSeconds) s"
      } else if result.truncated { "wrote more than \(limits.outputBytes >> 10) KiB" } else if result.exitCode > 128 {
        "ended by signal \(result.exitCode - 128)"
      } else { nil }
    if let stopped {
      Terminal.writeError("sandbox: the program \(stopped), and was stopped\n")
      Kaleidoscope.exit(withError: ExitCode.failure)
    }
    Kaleidoscope.exit(withError: result.exitCode == 0 ? nil : ExitCode(result.exitCode))
  }

  /// The child: reads the source from standard input (its length, a newline, its bytes; the
  /// rest is the program's input), compiles it, limits and seals itself, then runs it. Its
  /// command line is read by `PlainInvocation` (the server's) or by `RunCommand`.
  static func child(_ run: Sandbox.ChildRun, color: ColorChoice) throws -> Never {
    let (cpuSeconds, memoryBytes) = (run.cpuSeconds, run.memoryBytes)
    guard let source = SandboxInput.readSource() else {
      Terminal.writeError("error: sandbox: expected the source's length and bytes on standard input\n")
      Kaleidoscope.exit(withError: ExitCode.validationFailure)
    }
    if run.probe {
      enter(cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, reserved: 0)
      ks_sandbox_probe()
      Kaleidoscope.exit()
    }
    let options = CompileOptions(
      optimization: OptimizationLevel(rawValue: run.optimization) ?? .standard, forSemantics: run.forSemantics,
      printValues: !run.quiet)
    let name = run.name
    let file = SourceFile(name: name, bytes: source)
    let reporter = DiagnosticReporter(color: color, json: run.jsonDiagnostics)
    if run.tier == .interp {
      let program = try reporter.program(of: Pipeline.check(file, mode: .sandboxed))
      enter(cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, reserved: Interpreter.stackSize)
      let recorder = run.traceSteps.map { TraceRecorder(maxSteps: $0) }
      var failed = false
      do {
        try Pipeline.interpret(program, options: options, observer: recorder)
      } catch {
        failed = !(error == .interrupted && recorder?.truncated == true)
        // A failed extern has reported itself (`RuntimeHost.protectsCalls`).
        if failed && error != .reported { Terminal.writeError("\(error)\n") }
      }
      if let recorder {
        Terminal.writeError(Sandbox.traceMarker)
        recorder.finish(writingTo: STDERR_FILENO)
      }
      if failed { Kaleidoscope.exit(withError: ExitCode.failure) }
    } else {
      let loaded = try reporter.product(
        of: reportingBackEndErrors { try Pipeline.load(file, mode: .sandboxed, options: options) })
      // The program runs on the stack every engine has (`ks_run_main`), reserved here.
      enter(cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, reserved: Interpreter.stackSize)
      loaded.run()
    }
    Kaleidoscope.exit()
  }

  /// Limits and seals this process, or ends it: a program never runs unsandboxed.
  /// `prepare` may open `files` descriptors of its own, which stay open (the inherited ones
  /// are closed first).
  static func enter(
    cpuSeconds: Int, memoryBytes: Int, reserved: Int, opening files: Int32 = 0, beforeSealing prepare: () -> Void = {}
  ) {
    guard ks_sandbox_limit(UInt32(cpuSeconds), memoryBytes, reserved) == 0 else {
      Terminal.writeError("error: sandbox: cannot enter it: \(String(cString: strerror(errno)))\n")
      exit(1)
    }
    ks_sandbox_close_inherited_files()
    prepare()
    guard ks_sandbox_limit_files(3 + files) == 0, ks_sandbox_seal() == 0 else {
      Terminal.writeError("error: sandbox: cannot enter it: \(String(cString: strerror(errno)))\n")
      exit(1)
    }
  }

  private static func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return bytes }
      bytes += buffer[0..<count]
    }
  }
}
