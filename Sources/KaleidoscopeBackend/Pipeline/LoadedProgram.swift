import KaleidoscopeRuntime

/// A program compiled into this process by the JIT, ready to run.
public final class LoadedProgram {
  /// Owns the program's code: it must live as long as the program may run.
  private let jit: JIT
  private let entry: @convention(c) () -> Void

  init(jit: JIT, entry address: UInt64) {
    self.jit = jit
    self.entry = unsafeBitCast(UInt(address), to: (@convention(c) () -> Void).self)
  }

  /// Runs the top-level expressions in order, on the stack an executable runs them on
  /// (`ks_run_main`), then writes out the buffered output. A runtime error is reported by
  /// the runtime and ends the process with status 1.
  public func run() {
    ks_run_main(entry)
  }
}
