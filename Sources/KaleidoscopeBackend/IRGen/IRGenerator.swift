import CLLVM
import KaleidoscopeFrontend

/// Translates a checked program into LLVM IR.
///
/// Every value is a `double`, and an array is passed and held as two values, a pointer to its
/// elements and their count (`{ ptr, i64 }` in memory); a function returns a `double` and
/// takes a `double` per number parameter and the pair per array parameter. Locals live in
/// entry-block allocas, which `mem2reg` (part of every optimisation level above 0) turns into
/// SSA registers. Top-level expressions become functions `__anon_N`, declarations of globals
/// `__globals_N`, called in order by the entry function `__ks_main`, which also prints the
/// expressions' values. When the program is run rather than exported, each function also
/// takes the depth of its call (`IRGenerator+CallDepth.swift`).
final class IRGenerator {
  /// How calls to user-defined functions are made.
  enum Linking {
    /// One module holds the whole program: direct calls. Definitions are internal when only
    /// the program itself calls them (`run`), external when the module is a deliverable
    /// (`ir`, object files) so that every definition is kept and visible.
    case wholeProgram(exported: Bool)
    /// The REPL: each definition is its own symbol, and calls go through a per-name slot
    /// (a global holding the current definition's address) so a redefinition reaches
    /// earlier callers; globals are symbols shared by every input's module.
    case interactive(InteractiveNames)
    /// Tiered execution: a few functions at a time, each module calling the functions of
    /// earlier ones by their symbols (`tieredName`), except `copies`, compiled again here
    /// with internal linkage so that LLVM can inline them; the globals are the
    /// interpreter's cells, external globals (`tieredGlobalName`) that the JIT defines at
    /// their addresses, except those `fixed` has as constants. A loop of `loops`, compiled
    /// by an earlier module, is called there (`callCompiledLoop`).
    case tiered(copies: Set<FunctionID>, fixed: FixedGlobals = FixedGlobals(), loops: [Int32: CompiledLoop] = [:])
  }

  /// How the REPL's modules name what they share.
  struct InteractiveNames {
    /// The slot that holds the current definition of the function spelled so.
    var slot: (String) -> String
    /// The symbol of the definition this input compiles for a function.
    var definition: (FunctionID) -> String
    /// The symbol of a global, spelled so.
    var global: (String) -> String
    /// Whether this module defines the global spelled so (its first declaration in the
    /// session), rather than refers to it.
    var definesGlobal: (String) -> Bool
  }

  let program: CheckedProgram
  let module: Module
  let options: CompileOptions
  let linking: Linking
  let builder: Builder
  let context: LLVMContextRef
  let double: LLVMTypeRef
  let int64: LLVMTypeRef
  let int32: LLVMTypeRef
  let pointer: LLVMTypeRef
  /// An array in memory: `{ ptr elements, i64 count }`.
  let arrayType: LLVMTypeRef
  /// Function types by their parameters' kinds and whether they take a call depth, made on
  /// first use.
  private var functionTypes: [FunctionTypeKey: LLVMTypeRef] = [:]
  /// Whether the program's own functions take, and check, the depth of their call: when the
  /// module is run, not when it is a deliverable that C code may call.
  let countsCallDepth: Bool
  /// LLVM functions by `FunctionID.index` (dense), declared on first use.
  var functions: [LLVMValueRef?]
  /// LLVM globals by `GlobalID.index`, declared on first use.
  var globals: [LLVMValueRef?]
  /// What each load and store of a variable, an element or an array's header reaches.
  let aliasInfo: AliasInfo
  /// Whether each function runs a loop, itself or through its calls, by `FunctionID.index`
  /// (`IRGenerator+LoopHints.swift`); worked out when a loop first asks.
  lazy var loopingFunctions: [Bool] = Self.loopingFunctions(in: program)
  /// Extern names that resolve to nothing: calls to them report the error at run time.
  let unresolved: Set<String>
  /// What is known of array indices, and the copies of functions made from it.
  var indices: IndexKnowledge
  /// The globals this module has as constants (`FixedGlobals`): a tiered module's, or those
  /// a whole program run here declares first. Not for a deliverable, whose functions other
  /// code may call before its `main`, nor with debug information, where a debugger may
  /// set a global.
  let fixedGlobals: FixedGlobals

  // Per-body state.
  /// Each local's storage: a `double`, or an array's `{ ptr, i64 }`.
  var locals: [LLVMValueRef] = []
  /// The integer copy of each loop variable (`IRGenerator+IntegerCounters.swift`), by local;
  /// nil for other locals.
  var integerLocals: [LLVMValueRef?] = []
  /// The loop variables whose integer copy is live now, with the bits of their magnitude.
  var activeCounters: [Int32: Int] = [:]
  /// The range of each counter in the body of its loop, where the builder is inside it
  /// (`IRGenerator+IndexRanges.swift`).
  var counterRanges: [Int32: ClosedRange<Int64>] = [:]
  /// The loop of each counter whose body the builder is in, whose bound may keep indices
  /// in bounds (`IRGenerator+LengthBounds.swift`).
  var counterLoops: [Int32: ForLoop] = [:]
  var function: LLVMValueRef?
  /// The call depth of the frame being emitted: a parameter, or 0 at the top level.
  var callDepth: LLVMValueRef?
  var spine: [ExprID] = []
  /// Whether the frame is a loop continuation's (`emitLoopContinuation`), and whether its
  /// code checked the call depth far from the limit on entry.
  var frameIsLoopContinuation = false
  var frameAssumedShallow = false
  /// Fallbacks for compiled loops that this module calls, to emit (`emitLoopFallbacks`).
  var pendingLoopFallbacks: [(name: String, node: ExprID, body: Int)] = []
  /// DWARF, when asked for (`build -g`).
  let debugInfo: DebugInfoBuilder?
  var debugScope: LLVMMetadataRef?

  /// `globalFacts`, when given, are `WholeIndexAnalysis.globalFacts(of:forSemantics:)`,
  /// computed once by a caller that generates many modules of one program (tiered
  /// execution, whose interpreter keeps the same arrays as integers); otherwise they are
  /// computed when first needed.
  init(
    program: CheckedProgram, module: Module, options: CompileOptions, linking: Linking, unresolved: Set<String>,
    debugInfo: DebugInfoBuilder? = nil, globalFacts: WholeIndexAnalysis.GlobalFacts? = nil
  ) {
    self.debugInfo = debugInfo
    self.program = program
    self.module = module
    self.options = options
    self.linking = linking
    self.unresolved = unresolved
    self.builder = Builder(context: module.context)
    self.context = module.context.reference
    self.double = LLVMDoubleTypeInContext(context)
    self.int64 = LLVMInt64TypeInContext(context)
    self.int32 = LLVMInt32TypeInContext(context)
    self.pointer = LLVMPointerTypeInContext(context, 0)
    var fields: [LLVMTypeRef?] = [pointer, int64]
    self.arrayType = LLVMStructTypeInContext(context, &fields, 2, 0)
    self.functions = Array(repeating: nil, count: program.functions.symbols.count)
    self.globals = Array(repeating: nil, count: program.globals.symbols.count)
    self.aliasInfo = AliasInfo(context: context)
    if case .wholeProgram(let exported) = linking { countsCallDepth = !exported } else { countsCallDepth = true }
    var specializes = debugInfo == nil && options.optimization != .none
    var whole = true
    if case .interactive = linking { (specializes, whole) = (false, false) }
    self.indices = IndexKnowledge(program: program, specializes: specializes, knowsEveryAssignment: whole)
    if whole { indices.globalFacts = globalFacts }
    switch linking {
    case .tiered(_, let fixed, _): fixedGlobals = fixed
    case .wholeProgram(let exported):
      fixedGlobals = exported || debugInfo != nil ? FixedGlobals() : FixedGlobals(declaredFirstIn: program)
    case .interactive: fixedGlobals = FixedGlobals()
    }
  }

  var tree: SyntaxTree { program.tree }

  // MARK: - Functions

  /// A function type's parts.
  private struct FunctionTypeKey: Hashable {
    var kinds: [NameKind]
    var takesDepth: Bool
  }

  /// `double (double, ...)`, with `ptr, i64` in place of each array parameter's `double`,
  /// and a last `i32` for the call depth when `takesDepth`.
  func functionType(_ kinds: [NameKind], takesDepth: Bool = false) -> LLVMTypeRef {
    let key = FunctionTypeKey(kinds: kinds, takesDepth: takesDepth)
    if let type = functionTypes[key] { return type }
    var parameters: [LLVMTypeRef?] = kinds.flatMap { $0 == .number ? [double] : [pointer, int64] }
    if takesDepth { parameters.append(int32) }
    let type = parameters.withUnsafeMutableBufferPointer {
      LLVMFunctionType(double, $0.baseAddress, UInt32($0.count), 0)!
    }
    functionTypes[key] = type
    return type
  }

  func functionType(of symbol: FunctionSymbol) -> LLVMTypeRef {
    functionType(symbol.prototype.parameters.map(\.kind), takesDepth: takesDepth(symbol))
  }

  /// The LLVM function for a Kaleidoscope function, declared on first use.
  func llvmFunction(_ id: FunctionID) -> LLVMValueRef {
    if let existing = functions[Int(id.index)] { return existing }
    let symbol = program.functions[id]
    let type = functionType(of: symbol)
    let value: LLVMValueRef
    switch (symbol.origin, linking) {
    case (.external, _):
      if unresolved.contains(symbol.spelling) {
        value = LLVMAddFunction(module.reference, "\(symbol.spelling).unresolved", type)
        LLVMSetLinkage(value, LLVMInternalLinkage)
        emitUnresolvedStub(value, name: symbol.spelling)
      } else {
        value =
          LLVMGetNamedFunction(module.reference, symbol.spelling)
          ?? LLVMAddFunction(module.reference, symbol.spelling, type)
      }
    case (.defined, .wholeProgram(let exported)):
      value = LLVMAddFunction(module.reference, Self.definitionName(symbol.spelling), type)
      if !exported { LLVMSetLinkage(value, LLVMInternalLinkage) }
    case (.defined, .interactive(let names)):
      value = LLVMAddFunction(module.reference, names.definition(id), type)
    case (.defined, .tiered(let copies, _, _)):
      value = LLVMAddFunction(module.reference, Self.tieredName(symbol.spelling), type)
      if copies.contains(id) { LLVMSetLinkage(value, LLVMInternalLinkage) }
    }
    functions[Int(id.index)] = value
    return value
  }

  /// The IR name of a user-defined function: its own name, unless that is also a C library
  /// function's. LLVM recognises library functions by name (it would fold a user's `sin(1)`
  /// as libm's), so those get a suffix.
  static func definitionName(_ spelling: String) -> String {
    HostSymbols.resolves(spelling) ? "\(spelling).ks" : spelling
  }

  /// Makes an entry-block alloca for each of the body's locals (`locals`).
  func allocateLocals(of body: CheckedBody) {
    locals = body.locals.map { local in
      LLVMBuildAlloca(builder.reference, local.valueKind == .number ? double : arrayType, tree.text(local.name) + ".addr")!
    }
    // Unused ones cost nothing: mem2reg drops them.
    let integral = indices.current.integralLocals
    let stepped = indices.current.steppedLocals
    integerLocals = body.locals.enumerated().map { index, local in
      local.kind == .loopVariable || integral.contains(Int32(index)) || stepped.contains(Int32(index))
        ? LLVMBuildAlloca(builder.reference, int64, tree.text(local.name) + ".int")! : nil
    }
    activeCounters = [:]
    counterRanges = [:]
    counterLoops = [:]
    // An integral or stepped local's integer copy is kept with its double by every
    // assignment (`storeIntegral`, `emitUnitStep`), so it is valid wherever the local is in
    // scope.
    for index in integral { activeCounters[index] = IRGenerator.exactBits - 1 }
    for index in stepped { activeCounters[index] = IRGenerator.steppedBits }
  }

  /// The symbol of a function compiled for tiered execution.
  static func tieredName(_ spelling: String) -> String { "tier.\(spelling)" }

  /// The symbol of a global's cell in tiered modules. A global, unlike an address, is
  /// memory LLVM knows it may read, so it can take a read out of a loop where the read
  /// is behind a branch (a bounds check), and it knows two globals apart.
  static func tieredGlobalName(_ spelling: String) -> String { "tier.global.\(spelling)" }

  /// What the JIT defines for tiered modules: each global's symbol at its cell's `address`.
  static func tieredGlobalSymbols(
    of program: CheckedProgram, at address: (GlobalID) -> UnsafeMutableRawPointer
  ) -> [(name: String, address: UInt64)] {
    program.globals.symbols.enumerated().map { index, symbol in
      (tieredGlobalName(symbol.spelling), UInt64(UInt(bitPattern: address(GlobalID(index: Int32(index))))))
    }
  }

  /// Emits a `def`'s body into its function.
  func emitDefinition(_ body: CheckedBody) {
    let value = llvmFunction(body.function!)
    if let debugInfo {
      let symbol = program.functions[body.function!]
      debugScope = debugInfo.subprogram(
        for: value, name: symbol.spelling, linkageName: Self.name(of: value),
        parameters: symbol.prototype.parameters.map(\.kind), at: symbol.prototype.nameRange.start,
        isLocal: LLVMGetLinkage(value) == LLVMInternalLinkage)
    }
    emitFunction(value, body: body)
    emitPendingCopies()
  }

  /// Adds the function attribute `name` (one without a value) to `function`.
  func addAttribute(_ name: String, to function: LLVMValueRef) {
    let kind = LLVMGetEnumAttributeKindForName(name, name.utf8.count)
    LLVMAddAttributeAtIndex(
      function, LLVMAttributeIndex(bitPattern: Int32(LLVMAttributeFunctionIndex)), LLVMCreateEnumAttribute(context, kind, 0))
  }

  static func name(of value: LLVMValueRef) -> String {
    var length = 0
    guard let name = LLVMGetValueName2(value, &length) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
  }

  /// Emits a top-level expression, or a declaration of globals, as a function `name` of no
  /// parameters returning its value.
  ///
  /// In a whole program it is `alwaysinline`: the entry function calls it once, and the
  /// inliner would inline it anyway, but only after simplifying it on its own first, which
  /// repeats the work on everything it has inlined. The optimised code is the same.
  @discardableResult
  func emitTopLevel(_ body: CheckedBody, name: String, isInternal: Bool) -> LLVMValueRef {
    let value = LLVMAddFunction(module.reference, name, functionType([]))!
    if isInternal { LLVMSetLinkage(value, LLVMInternalLinkage) }
    if case .wholeProgram = linking { addAttribute("alwaysinline", to: value) }
    if let debugInfo {
      debugScope = debugInfo.subprogram(
        for: value, name: name, linkageName: name, parameters: [], at: tree.start(of: body.body), isLocal: isInternal)
    }
    emitFunction(value, body: body)
    emitPendingCopies()
    return value
  }

  /// Emits `body` into `value`; `wholeParameters` (bits) are the number parameters known to
  /// be indices, in a specialised copy.
  func emitFunction(_ value: LLVMValueRef, body: CheckedBody, wholeParameters: UInt64 = 0) {
    function = value
    indices.current = indexFacts(of: body, wholeParameters: wholeParameters)
    let entry = LLVMAppendBasicBlockInContext(context, value, "entry")!
    LLVMPositionBuilderAtEnd(builder.reference, entry)
    allocateLocals(of: body)
    let parameterCount = body.function.map { program.functions[$0].arity } ?? 0
    if let debugInfo, let debugScope {
      for (index, local) in body.locals.enumerated() {
        debugInfo.declare(
          locals[index], name: tree.text(local.name), kind: local.valueKind,
          argument: index < parameterCount ? index + 1 : nil, at: local.range.start, in: debugScope, block: entry)
      }
    }
    var llvmParameter: UInt32 = 0
    for (index, local) in body.locals.prefix(parameterCount).enumerated() {
      let name = tree.text(local.name)
      let first = LLVMGetParam(value, llvmParameter)!
      if local.valueKind == .number {
        LLVMSetValueName2(first, name, name.utf8.count)
        storeNumber(first, into: locals[index])
        llvmParameter += 1
      } else {
        let count = LLVMGetParam(value, llvmParameter + 1)!
        LLVMSetValueName2(first, name + ".elements", name.utf8.count + 9)
        LLVMSetValueName2(count, name + ".count", name.utf8.count + 6)
        storeArray(elements: first, count: count, into: locals[index])
        llvmParameter += 2
      }
    }
    startParameterCopies(of: body)
    callDepth =
      if body.function != nil, countsCallDepth {
        namedParameter(of: value, at: llvmParameter, "depth")
      } else {
        LLVMConstInt(int32, 0, 0)
      }
    LLVMBuildRet(builder.reference, emit(body.body))
    function = nil
    callDepth = nil
    debugScope = nil
    LLVMSetCurrentDebugLocation2(builder.reference, nil)
  }
}
