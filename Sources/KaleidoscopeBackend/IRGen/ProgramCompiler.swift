#if canImport(Glibc)
  import Glibc
#endif
import CLLVM
import KaleidoscopeFrontend

/// Turns a whole checked program into one LLVM module (the `run`, `ir` and `build` path).
public enum ProgramCompiler {
  /// Which definitions to compile.
  public enum Selection: Sendable {
    /// Only what the top-level expressions can call: what running needs.
    case reachable
    /// Every definition, for `ir` and object files.
    case all
  }

  /// Emits, verifies and (at `-O1` and above) optimises the program's module.
  /// Externs that `resolves` rejects become stubs that report the missing symbol when called.
  public static func compile(
    _ program: CheckedProgram, in context: Context, for machine: TargetMachine,
    options: CodeGenOptions, optimization: OptimizationLevel, selection: Selection,
    withMain: Bool = false, debugInfo: Bool = false,
    resolves: @escaping (String) -> Bool = HostSymbols.resolves
  ) throws -> Module {
    let module = Module(name: program.file.name, context: context)
    module.configure(for: machine)
    let bodies = selection == .reachable ? program.reachableBodies : program.bodies
    let unresolved = Set(
      program.functions.symbols.lazy.filter { $0.origin == .external && !resolves($0.spelling) }.map(\.spelling))
    let generator = IRGenerator(
      program: program, module: module, options: options, linking: .wholeProgram(exported: selection == .all),
      unresolved: unresolved,
      debugInfo: debugInfo ? DebugInfoBuilder(module: module, source: program.file, isOptimized: optimization != .none) : nil)
    var topLevels: [LLVMValueRef] = []
    for body in bodies {
      switch body.kind {
      case .function:
        generator.emitDefinition(body)
      case .topLevel(let index):
        topLevels.append(generator.emitTopLevel(body, name: "__anon_\(index)", isInternal: true))
      }
    }
    generator.emitEntry(calling: topLevels)
    if selection == .reachable { generator.inlineSoleCallees() }
    if withMain { generator.emitMain() }
    generator.debugInfo?.finalize()
    try module.verify()
    if optimization != .none {
      try module.optimize(level: optimization, for: machine)
    }
    return module
  }
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
