import Synchronization

/// What tiered execution did, for `run --stats`: what was compiled, the time it took, and
/// what stayed interpreted. The threads that compile write it; read it once the program has
/// run.
public final class TierStatistics: Sendable {
  /// The figures, as one value under one lock.
  public struct Figures: Sendable {
    /// Modules compiled, and the functions compiled for good (exported, callable from later
    /// modules) and loops in them.
    public var modules = 0
    /// Modules of loops compiled ahead, before the program reached them; of these, those the
    /// interpreter's thread compiled while it waited for code.
    public var modulesAhead = 0
    public var modulesWhileWaiting = 0
    /// Modules of loops the interpreter was running, which its thread compiled because the
    /// compiler thread was busy.
    public var modulesOfRunningLoops = 0
    /// Modules whose machine code came from the cache of earlier runs (`MachineCodeCache`).
    public var modulesCached = 0
    /// Loops asked for as soon as the interpreter reached them, as the last run of the same
    /// program asked for them (`LoopHistory`).
    public var loopsAskedAsLastRun = 0
    public var functions = 0
    public var loops = 0
    /// Private copies of small functions, one in each module that calls them, for LLVM to
    /// inline (not counted in `functions`).
    public var copies = 0
    /// Time spent compiling, on either thread.
    public var nanoseconds: UInt64 = 0
    /// Functions that ran at least once in the interpreter.
    public var interpretedFunctions = 0
    /// Loop iterations the interpreter ran, over all loops.
    public var interpretedLoopIterations = 0
    /// Why LLVM failed, when it did (the code stayed interpreted).
    public var failures: [String] = []
  }

  private let state = Mutex(Figures())

  public var figures: Figures { state.withLock { $0 } }

  /// Counts one module; `onInterpreterThread` when that thread built it rather than the
  /// compiler thread (while waiting for code when `ahead`, else for a loop it was running).
  func recordCompile(
    functions: Int, copies: Int, loops: Int, ahead: Bool, onInterpreterThread: Bool, cached: Bool,
    nanoseconds: UInt64
  ) {
    state.withLock {
      $0.modules += 1
      if ahead { $0.modulesAhead += 1 }
      if onInterpreterThread, ahead { $0.modulesWhileWaiting += 1 }
      if onInterpreterThread, !ahead { $0.modulesOfRunningLoops += 1 }
      if cached { $0.modulesCached += 1 }
      $0.functions += functions
      $0.copies += copies
      $0.loops += loops
      $0.nanoseconds += nanoseconds
    }
  }

  func recordLoopAskedAsLastRun() {
    state.withLock { $0.loopsAskedAsLastRun += 1 }
  }

  func recordFailure(_ message: String) {
    state.withLock { $0.failures.append(message) }
  }

  func recordInterpreted(functions: Int, loopIterations: Int) {
    state.withLock {
      $0.interpretedFunctions = functions
      $0.interpretedLoopIterations = loopIterations
    }
  }
}
