/// Which `for` loop a program means (SPEC §3). Every engine (the JIT, native executables, the
/// interpreter) implements both.
public enum ForSemantics: String, Sendable, CaseIterable {
  /// The pre-tested loop of the current upstream tutorial: the body may run zero times.
  case current
  /// The do-while loop of LLVM 19's reference implementation: the body runs at least once.
  case legacy
}
