import CLLVM

/// One-time initialisation of LLVM's targets. Safe to call from many threads: Swift runs a
/// static initialiser exactly once.
public enum LLVMTargets {
  private static let nativeInitialized: Bool = {
    LLVMLibrary.prepare()
    LLVMInitializeNativeTarget()
    LLVMInitializeNativeAsmPrinter()
    LLVMInitializeNativeAsmParser()
    return true
  }()

  /// The other targets' static constructors run here, not at start-up, when the tool is
  /// linked with build-support/lazy-llvm.sh's copies of their libraries.
  private static let allInitialized: Bool = {
    LLVMLibrary.prepare()
    ks_run_lazy_target_constructors()
    LLVMInitializeAllTargetInfos()
    LLVMInitializeAllTargets()
    LLVMInitializeAllTargetMCs()
    LLVMInitializeAllAsmPrinters()
    LLVMInitializeAllAsmParsers()
    return true
  }()

  /// Initialises the host's target (cheap; enough for the JIT and native builds).
  public static func initialize() {
    _ = nativeInitialized
  }

  /// Initialises every target LLVM was built with (for cross compilation).
  public static func initializeAll() {
    _ = allInitialized
  }

  /// The triple of the machine we run on.
  public static var hostTriple: String {
    LLVMLibrary.prepare()
    return takeMessage(LLVMGetDefaultTargetTriple())
  }

  /// The registered target for `triple` (its targets must be initialised).
  static func target(for triple: String) throws -> LLVMTargetRef {
    var target: LLVMTargetRef?
    var message: UnsafeMutablePointer<CChar>?
    guard LLVMGetTargetFromTriple(triple, &target, &message) == 0, let target else {
      let reason = takeMessage(message)
      throw BackendError.unknownTarget(
        "error: unknown target '\(triple)': \(reason)\nnote: `kaleidoscope build --print-targets` lists the targets this build of LLVM supports"
      )
    }
    return target
  }
}

/// An optimisation level, `-O0` to `-O3`.
public enum OptimizationLevel: Int, Sendable, CaseIterable {
  case none = 0
  case less, standard, aggressive

  var codeGenLevel: LLVMCodeGenOptLevel {
    switch self {
    case .none: LLVMCodeGenLevelNone
    case .less: LLVMCodeGenLevelLess
    case .standard: LLVMCodeGenLevelDefault
    case .aggressive: LLVMCodeGenLevelAggressive
    }
  }
}

/// An LLVM target machine: code generation for one triple, CPU and feature set.
public final class TargetMachine {
  let reference: LLVMTargetMachineRef
  public let triple: String

  /// A target machine for `triple` (default: the host, with its CPU's features).
  ///
  /// The CPU is always `generic`, so code is tuned as clang tunes it by default: the host's
  /// own scheduling model (znver3 here) describes a loop buffer so large that LLVM unrolled
  /// a sort's branchy inner loop far more than clang does its C twin's, and ran it slower
  /// (docs/DESIGN.md). The host's instruction set still comes whole from its features.
  public init(
    triple: String? = nil, optimization: OptimizationLevel = .standard,
    relocation: LLVMRelocMode = LLVMRelocPIC, codeModel: LLVMCodeModel = LLVMCodeModelDefault
  ) throws {
    if triple == nil { LLVMTargets.initialize() } else { LLVMTargets.initializeAll() }
    let host = triple == nil
    let triple = triple ?? LLVMTargets.hostTriple
    let target = try LLVMTargets.target(for: triple)
    let (features, abi) = host ? (takeMessage(LLVMGetHostCPUFeatures()), nil) : Self.linuxDefaults(for: triple)
    let options = LLVMCreateTargetMachineOptions()
    defer { LLVMDisposeTargetMachineOptions(options) }
    LLVMTargetMachineOptionsSetCPU(options, "generic")
    LLVMTargetMachineOptionsSetFeatures(options, features)
    if let abi { LLVMTargetMachineOptionsSetABI(options, abi) }
    LLVMTargetMachineOptionsSetCodeGenOptLevel(options, optimization.codeGenLevel)
    LLVMTargetMachineOptionsSetRelocMode(options, relocation)
    LLVMTargetMachineOptionsSetCodeModel(options, codeModel)
    guard let machine = LLVMCreateTargetMachineWithOptions(target, triple, options) else {
      throw BackendError.llvm("cannot create a target machine for '\(triple)'")
    }
    self.reference = machine
    self.triple = triple
  }

  /// The features and ABI clang gives a target by default on Linux, where they differ from
  /// LLVM's bare defaults: RISC-V Linux is RV64GC with doubles in floating-point registers
  /// (the ABI Debian's libraries use), not the soft-float base ISA.
  static func linuxDefaults(for triple: String) -> (features: String, abi: String?) {
    if triple.hasPrefix("riscv64") { return ("+m,+a,+f,+d,+c", "lp64d") }
    if triple.hasPrefix("riscv32") { return ("+m,+a,+f,+d,+c", "ilp32d") }
    return ("", nil)
  }

  /// The CPU the machine compiles for, which sets its tuning.
  public var cpu: String { takeMessage(LLVMGetTargetMachineCPU(reference)) }

  /// The features the machine compiles with: its instruction set.
  public var features: String { takeMessage(LLVMGetTargetMachineFeatureString(reference)) }

  /// The data layout string modules for this machine must carry.
  public var dataLayout: String {
    let data = LLVMCreateTargetDataLayout(reference)
    defer { LLVMDisposeTargetData(data) }
    return takeMessage(LLVMCopyStringRepOfTargetData(data))
  }

  deinit {
    LLVMDisposeTargetMachine(reference)
  }
}

extension LLVMTargets {
  /// Every target this LLVM was built with: (name, description).
  public static var available: [(name: String, description: String)] {
    initializeAll()
    var targets: [(String, String)] = []
    var target = LLVMGetFirstTarget()
    while let current = target {
      targets.append((String(cString: LLVMGetTargetName(current)), String(cString: LLVMGetTargetDescription(current))))
      target = LLVMGetNextTarget(current)
    }
    return targets.sorted { $0.0 < $1.0 }
  }
}
