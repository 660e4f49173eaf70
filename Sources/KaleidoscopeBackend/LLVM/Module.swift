import CLLVM

/// An LLVM context: owns types and constants. Modules are created in one.
public final class Context {
  let reference: LLVMContextRef

  public init() {
    LLVMLibrary.prepare()
    reference = LLVMContextCreate()
  }

  deinit {
    LLVMContextDispose(reference)
  }
}

/// An LLVM module: owns its IR.
public final class Module {
  let reference: LLVMModuleRef
  /// Keeps the context alive as long as the module.
  let context: Context

  public init(name: String, context: Context) {
    self.context = context
    reference = LLVMModuleCreateWithNameInContext(name, context.reference)
  }

  /// The module that LLVM assembly `text` describes.
  public init(parsing text: String, context: Context) throws {
    self.context = context
    let buffer = text.withCString { LLVMCreateMemoryBufferWithMemoryRangeCopy($0, text.utf8.count, "ir") }!
    var parsed: LLVMModuleRef?
    var message: UnsafeMutablePointer<CChar>?
    // LLVMParseIRInContext takes ownership of the buffer.
    guard LLVMParseIRInContext(context.reference, buffer, &parsed, &message) == 0, let parsed else {
      throw BackendError.llvm("cannot parse IR: \(takeMessage(message))")
    }
    reference = parsed
  }

  /// Sets the triple and data layout of the machine the module is for.
  public func configure(for machine: TargetMachine) {
    LLVMSetTarget(reference, machine.triple)
    LLVMSetDataLayout(reference, machine.dataLayout)
  }

  /// The module as LLVM assembly text.
  public var text: String {
    let text = takeMessage(LLVMPrintModuleToString(reference))
    return text.hasSuffix("\n") ? text : text + "\n"
  }

  /// Checks the IR; a failure is a bug in the IR generator.
  public func verify() throws {
    var message: UnsafeMutablePointer<CChar>?
    let failed = LLVMVerifyModule(reference, LLVMReturnStatusAction, &message) != 0
    // LLVM allocates the message even on success.
    let text = takeMessage(message)
    if failed { throw BackendError.verification(text) }
  }

  /// Optimises the module with the new pass manager's standard pipeline for `level`.
  public func optimize(level: OptimizationLevel, for machine: TargetMachine) throws {
    let options = LLVMCreatePassBuilderOptions()
    defer { LLVMDisposePassBuilderOptions(options) }
    LLVMPassBuilderOptionsSetLoopVectorization(options, level.rawValue >= 2 ? 1 : 0)
    LLVMPassBuilderOptionsSetSLPVectorization(options, level.rawValue >= 2 ? 1 : 0)
    try BackendError.check(LLVMRunPasses(reference, "default<O\(level.rawValue)>", machine.reference, options))
  }

  deinit {
    LLVMDisposeModule(reference)
  }
}

/// An IR builder: the cursor that instructions are inserted at.
final class Builder {
  let reference: LLVMBuilderRef

  init(context: Context) {
    reference = LLVMCreateBuilderInContext(context.reference)
  }

  deinit {
    LLVMDisposeBuilder(reference)
  }
}
