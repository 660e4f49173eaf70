import CLLVM

/// A thread-safe LLVM context, which the JIT needs modules to be built in.
public final class ThreadSafeContext {
  let reference: LLVMOrcThreadSafeContextRef
  /// The underlying context, owned by `reference`.
  public let context: Context

  public init() {
    reference = LLVMOrcCreateNewThreadSafeContext()
    context = Context(borrowing: LLVMOrcThreadSafeContextGetContext(reference))
  }

  deinit {
    LLVMOrcDisposeThreadSafeContext(reference)
  }
}

/// ORC's LLJIT: compiles modules to native code in this process and finds their symbols.
///
/// Externs resolve through a generator that searches the process (the runtime's exported
/// `putchard`/`printd`, the C library and libm, which the tool links).
///
/// A debuggable JIT links with RuntimeDyld instead of JITLink, because LLVM 19's C API can
/// attach a JIT event listener only to a RuntimeDyld layer; its GDB registration listener
/// hands every object, with its DWARF, to the debugger through the GDB JIT interface
/// (`__jit_debug_register_code`), so gdb can break in and step through JIT'd code.
public final class JIT {
  let reference: LLVMOrcLLJITRef
  /// The machine modules are optimised for before they are added.
  public let machine: TargetMachine

  public init(optimization: OptimizationLevel, debuggable: Bool = false) throws {
    LLVMTargets.initialize()
    let codeGenerator = try TargetMachine(
      optimization: optimization, relocation: LLVMRelocPIC, codeModel: LLVMCodeModelSmall)
    let builder = LLVMOrcCreateLLJITBuilder()
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(codeGenerator.relinquish()))
    if debuggable {
      LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(builder, { _, session, _ in
        let layer = LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(session)!
        LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(layer, LLVMCreateGDBRegistrationListener())
        return layer
      }, nil)
    }
    var jit: LLVMOrcLLJITRef?
    try BackendError.check(LLVMOrcCreateLLJIT(&jit, builder))
    reference = jit!
    machine = try TargetMachine(optimization: optimization, relocation: LLVMRelocPIC, codeModel: LLVMCodeModelSmall)

    var generator: LLVMOrcDefinitionGeneratorRef?
    try BackendError.check(
      LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&generator, LLVMOrcLLJITGetGlobalPrefix(reference), nil, nil))
    LLVMOrcJITDylibAddGenerator(mainDylib, generator)
  }

  deinit {
    if let error = LLVMOrcDisposeLLJIT(reference) { _ = BackendError.consume(error) }
  }

  var mainDylib: LLVMOrcJITDylibRef { LLVMOrcLLJITGetMainJITDylib(reference) }

  /// Adds a module (built in `context`); with a tracker, its code can be removed later.
  public func add(_ module: Module, context: ThreadSafeContext, tracker: ResourceTracker? = nil) throws {
    let threadSafeModule = LLVMOrcCreateNewThreadSafeModule(module.relinquish(), context.reference)
    let error: LLVMErrorRef?
    if let tracker {
      error = LLVMOrcLLJITAddLLVMIRModuleWithRT(reference, tracker.reference, threadSafeModule)
    } else {
      error = LLVMOrcLLJITAddLLVMIRModule(reference, mainDylib, threadSafeModule)
    }
    if error != nil { LLVMOrcDisposeThreadSafeModule(threadSafeModule) }
    try BackendError.check(error)
  }

  /// The address of a symbol, compiling what it needs first.
  public func address(of name: String) throws -> UInt64 {
    var address: LLVMOrcExecutorAddress = 0
    try BackendError.check(LLVMOrcLLJITLookup(reference, &address, name))
    return address
  }

  /// A tracker for code that will be removed (a REPL expression once it has run).
  public func makeResourceTracker() -> ResourceTracker {
    ResourceTracker(LLVMOrcJITDylibCreateResourceTracker(mainDylib))
  }
}

/// Owns code added to the JIT under it; `remove()` frees that code.
public final class ResourceTracker {
  let reference: LLVMOrcResourceTrackerRef

  init(_ reference: LLVMOrcResourceTrackerRef) {
    self.reference = reference
  }

  public func remove() throws {
    try BackendError.check(LLVMOrcResourceTrackerRemove(reference))
  }

  deinit {
    LLVMOrcReleaseResourceTracker(reference)
  }
}
