import CLLVM

/// LLVM as a library of this process. Its static constructors do not run before `main`
/// (build-support/lazy-llvm.sh moves them), so that commands that never use LLVM (`check`,
/// `fmt`, the language server) do not pay for them; the first use runs them.
enum LLVMLibrary {
  private static let constructed: Bool = {
    ks_run_llvm_constructors()
    return true
  }()

  /// Makes LLVM ready for use. Every road into LLVM calls it first: a `Context`, the targets
  /// (`LLVMTargets`) and the options (`LLVMOptions`). Safe from many threads: the first caller
  /// runs the constructors and the others wait for it.
  static func prepare() {
    _ = constructed
  }
}
