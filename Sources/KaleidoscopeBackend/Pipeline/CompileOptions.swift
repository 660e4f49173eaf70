import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// The choices that change what compiling a program produces.
public struct CompileOptions: Sendable {
  /// The optimisation pipeline, `-O0` to `-O3`.
  public var optimization: OptimizationLevel
  /// Which `for` loop the program means (SPEC §3).
  public var forSemantics: ForSemantics
  /// Whether the entry function prints each top-level expression's value (`run` without `-q`).
  public var printValues: Bool
  /// Whether to generate DWARF for debuggers (`-g`).
  public var debugInfo: Bool

  public init(
    optimization: OptimizationLevel = .standard, forSemantics: ForSemantics = .current, printValues: Bool = true,
    debugInfo: Bool = false
  ) {
    self.optimization = optimization
    self.forSemantics = forSemantics
    self.printValues = printValues
    self.debugInfo = debugInfo
  }
}

/// Names shared by the generated code, the JIT and the runtime.
public enum Symbols {
  /// The function that runs a program's top-level expressions in order.
  public static let entry = "__ks_main"
  static let printValue = "ks_print_value"
  static let unresolvedExtern = "ks_unresolved_extern"
  /// Where a runtime function that may fail was called (`HostLibrary.reportsAtCallSite`).
  static let callSite = "ks_call_site"
}

/// What the running process can call by name: the runtime, the C library, libm.
public enum HostSymbols {
  /// Whether `name` is a function this process exports (the tool links libm and exports
  /// the runtime's symbols).
  public static func resolves(_ name: String) -> Bool {
    // RTLD_DEFAULT (a null handle on glibc): the global symbols of the process.
    dlsym(nil, name) != nil
  }
}
