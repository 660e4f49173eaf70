import CLLVM

/// ORC's LLJIT: links native code into this process and finds its symbols.
///
/// Modules are compiled to objects by `machine`, the target machine the optimiser already
/// used, and added as objects: the JIT's own compiler never runs, so its target machines are
/// described with a generic CPU (`genericHostDescription`); each target machine of the host's
/// CPU costs a parse of its feature string and, once used, a subtarget with its lowering
/// tables.
///
/// Externs resolve through a generator that searches the process (the runtime's exported
/// `putchard`/`printd`, the C library and libm, which the tool links).
///
/// A debuggable JIT links with RuntimeDyld instead of JITLink, because LLVM 19's C API can
/// attach a JIT event listener only to a RuntimeDyld layer; its GDB registration listener
/// hands every object, with its DWARF, to the debugger through the GDB JIT interface
/// (`__jit_debug_register_code`), so gdb can break in and step through JIT'd code.
///
/// Objects may be added and symbols looked up from any thread (ORC locks its session), but
/// `machine`, like every target machine, compiles for one thread at a time.
public final class JIT: @unchecked Sendable {
  let reference: LLVMOrcLLJITRef
  /// The machine modules are optimised for and compiled by before they are added.
  public let machine: TargetMachine

  public convenience init(optimization: OptimizationLevel, debuggable: Bool = false) throws {
    try self.init(machine: JIT.machine(optimization: optimization), debuggable: debuggable)
  }

  /// The target machine a JIT compiles with: the host's, with PIC and the small code model.
  public static func machine(optimization: OptimizationLevel) throws -> TargetMachine {
    try TargetMachine(optimization: optimization, relocation: LLVMRelocPIC, codeModel: LLVMCodeModelSmall)
  }

  public init(machine: TargetMachine, debuggable: Bool = false) throws {
    LLVMTargets.initialize()
    self.machine = machine
    let builder = LLVMOrcCreateLLJITBuilder()
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, try Self.genericHostDescription())
    if debuggable {
      LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(
        builder,
        { _, session, _ in
          let layer = LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(session)!
          LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(layer, LLVMCreateGDBRegistrationListener())
          return layer
        }, nil)
    }
    var jit: LLVMOrcLLJITRef?
    try BackendError.check(LLVMOrcCreateLLJIT(&jit, builder))
    reference = jit!

    var generator: LLVMOrcDefinitionGeneratorRef?
    try BackendError.check(
      LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&generator, LLVMOrcLLJITGetGlobalPrefix(reference), nil, nil))
    LLVMOrcJITDylibAddGenerator(mainDylib, generator)
  }

  /// LLJIT's description of its target: the host's triple with a generic CPU and no feature
  /// string. LLJIT makes two target machines from it, one to learn the data layout (which the
  /// triple alone decides) and one for an IR compiler we never call, since modules arrive as
  /// objects compiled by `machine`. Described by the host's CPU, each would parse the host's
  /// long feature string again.
  private static func genericHostDescription() throws -> LLVMOrcJITTargetMachineBuilderRef {
    let triple = LLVMTargets.hostTriple
    guard
      let generic = LLVMCreateTargetMachine(
        try LLVMTargets.target(for: triple), triple, "", "", LLVMCodeGenLevelNone, LLVMRelocPIC, LLVMCodeModelSmall)
    else {
      throw BackendError.llvm("cannot create a target machine for '\(triple)'")
    }
    // Takes ownership of `generic`.
    return LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(generic)
  }

  deinit {
    if let error = LLVMOrcDisposeLLJIT(reference) { _ = BackendError.consume(error) }
  }

  var mainDylib: LLVMOrcJITDylibRef { LLVMOrcLLJITGetMainJITDylib(reference) }

  /// The data layout LLJIT learnt from its target description (owned by LLJIT).
  var dataLayout: String { String(cString: LLVMOrcLLJITGetDataLayoutStr(reference)) }

  /// The triple LLJIT links for (owned by LLJIT).
  var triple: String { String(cString: LLVMOrcLLJITGetTripleString(reference)) }

  /// Compiles a module to native code and adds it; with a tracker, its code can be removed later.
  public func add(_ module: Module, tracker: ResourceTracker? = nil) throws {
    try add(object: try ObjectEmitter.object(of: module, machine: machine), tracker: tracker)
  }

  /// Adds an object file in memory (made by `machine`), taking the buffer over.
  func add(object: LLVMMemoryBufferRef, tracker: ResourceTracker? = nil) throws {
    // Both calls take ownership of the buffer.
    let error =
      if let tracker {
        LLVMOrcLLJITAddObjectFileWithRT(reference, tracker.reference, object)
      } else {
        LLVMOrcLLJITAddObjectFile(reference, mainDylib, object)
      }
    try BackendError.check(error)
  }

  /// Defines symbols at fixed addresses, memory this process already has, for later
  /// modules to refer to by name.
  public func define(absolute symbols: [(name: String, address: UInt64)]) throws {
    guard !symbols.isEmpty else { return }
    let session = LLVMOrcLLJITGetExecutionSession(reference)
    let exported = LLVMJITSymbolFlags(GenericFlags: UInt8(LLVMJITSymbolGenericFlagsExported.rawValue), TargetFlags: 0)
    // The unit takes the interned names over.
    var pairs = symbols.map { symbol in
      LLVMOrcCSymbolMapPair(
        Name: LLVMOrcExecutionSessionIntern(session, symbol.name),
        Sym: LLVMJITEvaluatedSymbol(Address: symbol.address, Flags: exported))
    }
    let unit = LLVMOrcAbsoluteSymbols(&pairs, pairs.count)
    // On success the dylib owns the unit; on failure it is still ours.
    if let error = LLVMOrcJITDylibDefine(mainDylib, unit) {
      LLVMOrcDisposeMaterializationUnit(unit)
      try BackendError.check(error)
    }
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
