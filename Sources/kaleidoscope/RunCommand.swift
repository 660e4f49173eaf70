import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope run`: check the whole file, then run it in this process, in tiers by default
/// (the interpreter at once, LLVM in the background for what gets hot), or with `--tier jit`
/// (LLVM compiles everything reachable first) or `--tier interp`; sandboxed with `--sandbox`.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Compile a program and run its top-level expressions in order.",
    discussion: """
      The whole file is checked first (a function may be called before its definition); \
      a file with errors runs nothing. Each top-level expression's value is printed on its \
      own line, interleaved with what the program writes; -q prints only what the program \
      writes.

      How it runs (--tier): auto, the default, starts in the interpreter at once and has \
      LLVM compile at -O2 (unless told otherwise), on another thread, the functions called \
      often and the loops that run long, which then go on in machine code (and, when it is \
      idle, loops the program has yet to reach). jit compiles everything the program can \
      reach first, then runs it; interp only interprets. The \
      output is the same in every tier; --stats tells what ran where. -g runs in the jit \
      tier, for the debugger.

      The auto tier keeps the machine code it compiles in a cache, with the order it asked \
      for its loops in, and a later run of the same program asks for them as it reaches \
      them and links their code instead of waiting for LLVM: in $KALEIDOSCOPE_CACHE, \
      else $XDG_CACHE_HOME/kaleidoscope/machine-code, else \
      ~/.cache/kaleidoscope/machine-code; KALEIDOSCOPE_CACHE=off turns it off. It is \
      cleared by deleting the directory, and trims itself past 64 MiB. --sandbox never \
      uses it.

      Examples:
        kaleidoscope run examples/mandelbrot.ks
        kaleidoscope run --stats examples/fib.ks
        kaleidoscope run -O0 --for-semantics=legacy examples/fib.ks
        echo 'extern sqrt(x); sqrt(2)' | kaleidoscope run -
        kaleidoscope run --tier interp examples/fib.ks
        KALEIDOSCOPE_CACHE=off kaleidoscope run --stats examples/mandelbrot.ks
        kaleidoscope run --sandbox untrusted.ks
        gdb -q -ex 'break fib' -ex run --args kaleidoscope run -g -O0 examples/fib.ks
      """
  )

  @Flag(name: .short, help: "Print only the program's own output, not the values of top-level expressions.")
  var quiet = false

  @Flag(name: .customShort("g"), help: "Generate DWARF debug information and register the JIT's code with gdb.")
  var debugInfo = false

  @Option(help: "How the program runs: auto (the interpreter, then LLVM for what gets hot), jit (LLVM first) or interp.")
  var tier: Tier?

  /// The older spelling of `--tier`, kept for scripts that use it (`--engine interpreter`).
  @Option(help: .hidden)
  var engine: Tier?

  @Flag(help: "After the run, print on standard error what ran in which tier and what compiling took.")
  var stats = false

  @Option(help: .hidden)
  var tierHotCalls = TierPolicy().hotCalls

  @Option(help: .hidden)
  var tierHotIterations = TierPolicy().hotIterations

  @Flag(help: .hidden)
  var tierWait = false

  @OptionGroup var sandbox: SandboxOptions

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions
  @OptionGroup var input: InputOptions
  @OptionGroup var color: ColorOptions

  func validate() throws {
    if let tier, let engine, tier != engine {
      throw ValidationError("--tier \(tier.rawValue) and --engine \(engine.rawValue) disagree")
    }
    if resolvedTier == .interp && debugInfo {
      throw ValidationError("-g needs the JIT; the interpreter runs no machine code to debug")
    }
  }

  /// The tier asked for; -g pins the jit tier.
  var resolvedTier: Tier {
    let asked = tier ?? engine ?? .auto
    return debugInfo && asked == .auto ? .jit : asked
  }

  func run() throws {
    let options = CompileOptions(
      optimization: optimization.resolved(default: .standard), forSemantics: semantics.forSemantics,
      printValues: !quiet, debugInfo: debugInfo)
    if sandbox.isChild {
      try SandboxedRun.child(sandbox.childRun(name: input.file, tier: resolvedTier, options: options), color: color.color)
    }
    if sandbox.enabled {
      try SandboxedRun.parent(try input.load(), tier: resolvedTier, options: options, quiet: quiet, sandbox: sandbox)
    }
    let policy = TierPolicy(hotCalls: tierHotCalls, hotIterations: tierHotIterations, waits: tierWait)
    try Self.run(input, color: color.color, tier: resolvedTier, options: options, policy: policy, stats: stats)
  }

  /// What `run` does; the defaults are the options' (`PlainInvocation` runs it with them).
  static func run(
    _ input: InputOptions, color: ColorChoice, tier: Tier = .auto, options: CompileOptions = CompileOptions(),
    policy: TierPolicy = TierPolicy(), stats: Bool = false
  ) throws {
    let started = RunStatistics.now()
    let file = try input.load()
    let reporter = DiagnosticReporter(color: color)
    var report = RunStatistics(tier: tier, started: started)
    switch tier {
    case .interp, .auto:
      let program = try reporter.program(of: Pipeline.check(file))
      do {
        if tier == .auto {
          // The compiler may still be inside LLVM when the program ends: the process then
          // ends with `_exit`, whose missing destructors cannot pull LLVM from under it.
          let cache = MachineCodeCache.standard(environment: Terminal.environment)
          report.tiers = try Pipeline.runTiered(
            program, options: options, policy: policy, cache: cache, waitsForCompiler: false)
        } else {
          try Pipeline.interpret(program, options: options)
        }
      } catch {
        Terminal.writeError("\(error)\n")
        endProcess(status: 1)
      }
    case .jit:
      let loaded = try reporter.product(of: reportingBackEndErrors { try Pipeline.load(file, options: options) })
      report.compiled = RunStatistics.now()
      loaded.run()
    }
    if stats { Terminal.writeError(report.summary()) }
    endProcess(status: 0)
  }

  /// Ends the process at once, once what C's streams hold is written: nothing built needs
  /// taking apart, as with clang's -disable-free, and without the exit handlers and static
  /// destructors of `exit` (LLVM's, the longest), no compile in progress need be waited for.
  static func endProcess(status: Int32) -> Never {
    fflush(nil)
    _exit(status)
  }
}

/// `--tier auto|jit|interp`; `interpreter`, the older spelling of `interp`, still works.
extension Tier: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(spelling: argument)
  }
}

/// `--view tokens|ast|ir|asm` (the playground's sandboxed side).
extension View: ExpressibleByArgument {}
