import CLLVM
import KaleidoscopeFrontend

/// Translates a checked program into LLVM IR.
///
/// Every value is a `double`; a function of n parameters is `double (double, ...)`. Locals
/// live in entry-block allocas, which `mem2reg` (part of every optimisation level above 0)
/// turns into SSA registers. Top-level expressions become functions `__anon_N`, called in
/// order by the entry function `__ks_main`, which also prints their values.
final class IRGenerator {
  /// How calls to user-defined functions are made.
  enum Linking {
    /// One module holds the whole program: direct calls. Definitions are internal when only
    /// the program itself calls them (`run`), external when the module is a deliverable
    /// (`ir`, object files) so that every definition is kept and visible.
    case wholeProgram(exported: Bool)
    /// The REPL: each definition is its own symbol, and calls go through a per-name slot
    /// (a global holding the current definition's address) so a redefinition reaches
    /// earlier callers.
    case interactive(slotName: (String) -> String, definitionName: (FunctionID) -> String)
  }

  let program: CheckedProgram
  let module: Module
  let options: CompileOptions
  let linking: Linking
  let builder: Builder
  let context: LLVMContextRef
  let double: LLVMTypeRef
  /// Function types by arity, made on first use.
  private var functionTypes: [LLVMTypeRef?] = []
  /// LLVM functions by `FunctionID.index` (dense), declared on first use.
  var functions: [LLVMValueRef?]
  /// Extern names that resolve to nothing: calls to them report the error at run time.
  let unresolved: Set<String>

  // Per-body state.
  var locals: [LLVMValueRef] = []
  var function: LLVMValueRef?
  var spine: [ExprID] = []
  /// DWARF, when asked for (`build -g`).
  let debugInfo: DebugInfoBuilder?
  var debugScope: LLVMMetadataRef?

  init(
    program: CheckedProgram, module: Module, options: CompileOptions, linking: Linking, unresolved: Set<String>,
    debugInfo: DebugInfoBuilder? = nil
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
    self.functions = Array(repeating: nil, count: program.functions.symbols.count)
  }

  var tree: SyntaxTree { program.tree }

  // MARK: - Functions

  func functionType(arity: Int) -> LLVMTypeRef {
    if arity < functionTypes.count, let type = functionTypes[arity] { return type }
    var parameters = [LLVMTypeRef?](repeating: double, count: arity)
    let type = parameters.withUnsafeMutableBufferPointer {
      LLVMFunctionType(double, $0.baseAddress, UInt32(arity), 0)!
    }
    if arity >= functionTypes.count { functionTypes += Array(repeating: nil, count: arity + 1 - functionTypes.count) }
    functionTypes[arity] = type
    return type
  }

  /// The LLVM function for a Kaleidoscope function, declared on first use.
  func llvmFunction(_ id: FunctionID) -> LLVMValueRef {
    if let existing = functions[Int(id.index)] { return existing }
    let symbol = program.functions[id]
    let type = functionType(arity: symbol.arity)
    let value: LLVMValueRef
    switch (symbol.origin, linking) {
    case (.external, _):
      if unresolved.contains(symbol.spelling) {
        value = LLVMAddFunction(module.reference, "\(symbol.spelling).unresolved", type)
        LLVMSetLinkage(value, LLVMInternalLinkage)
        emitUnresolvedStub(value, name: symbol.spelling)
      } else {
        value = LLVMGetNamedFunction(module.reference, symbol.spelling)
          ?? LLVMAddFunction(module.reference, symbol.spelling, type)
      }
    case (.defined, .wholeProgram(let exported)):
      value = LLVMAddFunction(module.reference, Self.definitionName(symbol.spelling), type)
      if !exported { LLVMSetLinkage(value, LLVMInternalLinkage) }
    case (.defined, .interactive(_, let definitionName)):
      value = LLVMAddFunction(module.reference, definitionName(id), type)
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

  /// Emits a `def`'s body into its function.
  func emitDefinition(_ body: CheckedBody) {
    let value = llvmFunction(body.function!)
    if let debugInfo {
      let symbol = program.functions[body.function!]
      debugScope = debugInfo.subprogram(
        for: value, name: symbol.spelling, linkageName: Self.name(of: value), arity: symbol.arity,
        at: symbol.prototype.nameRange.start, isLocal: LLVMGetLinkage(value) == LLVMInternalLinkage)
    }
    emitFunction(value, body: body)
  }

  /// Adds the function attribute `name` (one without a value) to `function`.
  func addAttribute(_ name: String, to function: LLVMValueRef) {
    let kind = LLVMGetEnumAttributeKindForName(name, name.utf8.count)
    LLVMAddAttributeAtIndex(function, LLVMAttributeIndex(bitPattern: Int32(LLVMAttributeFunctionIndex)), LLVMCreateEnumAttribute(context, kind, 0))
  }

  private static func name(of value: LLVMValueRef) -> String {
    var length = 0
    guard let name = LLVMGetValueName2(value, &length) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
  }

  /// Emits a top-level expression as a function `name` of no parameters returning its value.
  ///
  /// In a whole program it is `alwaysinline`: the entry function calls it once, and the
  /// inliner would inline it anyway, but only after simplifying it on its own first, which
  /// repeats the work on everything it has inlined. The optimised code is the same.
  @discardableResult
  func emitTopLevel(_ body: CheckedBody, name: String, isInternal: Bool) -> LLVMValueRef {
    let value = LLVMAddFunction(module.reference, name, functionType(arity: 0))!
    if isInternal { LLVMSetLinkage(value, LLVMInternalLinkage) }
    if case .wholeProgram = linking { addAttribute("alwaysinline", to: value) }
    if let debugInfo {
      debugScope = debugInfo.subprogram(
        for: value, name: name, linkageName: name, arity: 0, at: tree.start(of: body.body), isLocal: isInternal)
    }
    emitFunction(value, body: body)
    return value
  }

  private func emitFunction(_ value: LLVMValueRef, body: CheckedBody) {
    function = value
    let entry = LLVMAppendBasicBlockInContext(context, value, "entry")
    LLVMPositionBuilderAtEnd(builder.reference, entry)
    locals = body.locals.map { local in
      LLVMBuildAlloca(builder.reference, double, tree.text(local.name) + ".addr")!
    }
    if let debugInfo, let debugScope {
      let parameterCount = Int(LLVMCountParams(value))
      for (index, local) in body.locals.enumerated() {
        debugInfo.declare(
          locals[index], name: tree.text(local.name), argument: index < parameterCount ? index + 1 : nil,
          at: local.range.start, in: debugScope, block: entry!)
      }
    }
    for index in 0..<Int(LLVMCountParams(value)) {
      let parameter = LLVMGetParam(value, UInt32(index))!
      LLVMSetValueName2(parameter, tree.text(body.locals[index].name), tree.text(body.locals[index].name).utf8.count)
      LLVMBuildStore(builder.reference, parameter, locals[index])
    }
    LLVMBuildRet(builder.reference, emit(body.body))
    function = nil
    debugScope = nil
    LLVMSetCurrentDebugLocation2(builder.reference, nil)
  }
}
