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
  let options: CodeGenOptions
  let linking: Linking
  private let builder: Builder
  private let context: LLVMContextRef
  private let double: LLVMTypeRef
  /// Function types by arity, made on first use.
  private var functionTypes: [LLVMTypeRef?] = []
  /// LLVM functions by `FunctionID.index`, declared on first use. (Arrays, not dictionaries:
  /// the keys are dense, and each new dictionary type costs the Swift runtime a scan of every
  /// protocol conformance in the binary to check `Hashable`, 0.2 million instructions.)
  private var functions: [LLVMValueRef?]
  /// Extern names that resolve to nothing: calls to them report the error at run time.
  private let unresolved: Set<String>

  // Per-body state.
  private var locals: [LLVMValueRef] = []
  private var function: LLVMValueRef?
  private var spine: [ExprID] = []
  /// DWARF, when asked for (`build -g`).
  let debugInfo: DebugInfoBuilder?
  private var debugScope: LLVMMetadataRef?

  init(
    program: CheckedProgram, module: Module, options: CodeGenOptions, linking: Linking, unresolved: Set<String>,
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

  private var tree: SyntaxTree { program.tree }

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

  private func emitUnresolvedStub(_ stub: LLVMValueRef, name: String) {
    let saved = LLVMGetInsertBlock(builder.reference)
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, stub, "entry"))
    let report = runtimeFunction(Symbols.unresolvedExtern, returning: LLVMVoidTypeInContext(context), parameters: [LLVMPointerTypeInContext(context, 0)])
    var arguments: [LLVMValueRef?] = [LLVMBuildGlobalStringPtr(builder.reference, name, "extern.name")]
    _ = arguments.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, report.type, report.value, $0.baseAddress, 1, "")
    }
    LLVMBuildUnreachable(builder.reference)
    if let saved { LLVMPositionBuilderAtEnd(builder.reference, saved) }
  }

  /// A runtime function, declared on first use.
  func runtimeFunction(_ name: String, returning result: LLVMTypeRef, parameters: [LLVMTypeRef]) -> (value: LLVMValueRef, type: LLVMTypeRef) {
    var parameterTypes = parameters.map { Optional($0) }
    let type = parameterTypes.withUnsafeMutableBufferPointer {
      LLVMFunctionType(result, $0.baseAddress, UInt32(parameters.count), 0)!
    }
    let value = LLVMGetNamedFunction(module.reference, name) ?? LLVMAddFunction(module.reference, name, type)!
    return (value, type)
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
  private func addAttribute(_ name: String, to function: LLVMValueRef) {
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
  /// repeats the work on everything it has inlined (the loop benchmark: 1.1 million of the
  /// O2 pipeline's 11 million instructions; the optimised code is the same).
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

  /// The most instructions a definition may have for `inlineSoleCallees` to mark it: well
  /// inside what LLVM's bonus for a sole call covers (15,000 cost units, some 3,000
  /// instructions), so that marking never forces an inlining LLVM would refuse.
  static let soleCalleeInstructionLimit = 1_000

  /// Marks `alwaysinline` every internal definition that the module calls from exactly one
  /// place, outside itself, and that has at most `soleCalleeInstructionLimit` instructions.
  ///
  /// The inliner would inline such a function anyway, but only after simplifying it on its
  /// own, work that the simplification of its caller then repeats on the inlined copy: 1.0 of
  /// the loop benchmark's 27.8 million instructions, 11 of Mandelbrot's 55 million. The code
  /// is the same for the test and benchmark programs, except Mandelbrot's, where simplifying
  /// in the caller's context folds one `select` more. (Top-level expressions are marked when
  /// they are emitted, for the same reason.)
  func inlineSoleCallees() {
    for (index, function) in functions.enumerated() {
      // Called only for the reachable program: a defined function declared here is the callee
      // of an emitted body, so it is reachable and has a body of its own.
      guard let value = function, program.functions.symbols[index].origin == .defined,
        LLVMGetLinkage(value) == LLVMInternalLinkage,
        let use = LLVMGetFirstUse(value), LLVMGetNextUse(use) == nil,
        let call = LLVMIsACallInst(LLVMGetUser(use)), LLVMGetCalledValue(call) == value,
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) != value,
        Self.instructionCount(of: value, upTo: Self.soleCalleeInstructionLimit) <= Self.soleCalleeInstructionLimit
      else { continue }
      addAttribute("alwaysinline", to: value)
    }
  }

  /// The number of instructions in `function`, counting stops past `limit`.
  private static func instructionCount(of function: LLVMValueRef, upTo limit: Int) -> Int {
    var count = 0
    var block = LLVMGetFirstBasicBlock(function)
    while let current = block, count <= limit {
      var instruction = LLVMGetFirstInstruction(current)
      while let item = instruction {
        count += 1
        instruction = LLVMGetNextInstruction(item)
      }
      block = LLVMGetNextBasicBlock(current)
    }
    return count
  }

  /// Emits the entry function: runs each top-level function in order, printing its value
  /// when the options ask for it.
  func emitEntry(calling topLevels: [LLVMValueRef], name: String = Symbols.entry) {
    let void = LLVMVoidTypeInContext(context)!
    let entryType = LLVMFunctionType(void, nil, 0, 0)!
    let entry = LLVMAddFunction(module.reference, name, entryType)!
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, entry, "entry"))
    let print = runtimeFunction(Symbols.printValue, returning: void, parameters: [double])
    for topLevel in topLevels {
      let value = LLVMBuildCall2(builder.reference, functionType(arity: 0), topLevel, nil, 0, "value")
      if options.printValues {
        var arguments: [LLVMValueRef?] = [value]
        _ = arguments.withUnsafeMutableBufferPointer {
          LLVMBuildCall2(builder.reference, print.type, print.value, $0.baseAddress, 1, "")
        }
      }
    }
    LLVMBuildRetVoid(builder.reference)
  }

  /// Emits C's `main` for executables: set up the runtime, run the entry function, flush.
  func emitMain() {
    let void = LLVMVoidTypeInContext(context)!
    let int32 = LLVMInt32TypeInContext(context)!
    let mainType = LLVMFunctionType(int32, nil, 0, 0)!
    let main = LLVMAddFunction(module.reference, "main", mainType)!
    LLVMPositionBuilderAtEnd(builder.reference, LLVMAppendBasicBlockInContext(context, main, "entry"))
    for name in ["ks_runtime_init", Symbols.entry, "ks_flush"] {
      let function = runtimeFunction(name, returning: void, parameters: [])
      LLVMBuildCall2(builder.reference, function.type, function.value, nil, 0, "")
    }
    LLVMBuildRet(builder.reference, LLVMConstInt(int32, 0, 0))
  }

  // MARK: - Expressions

  /// Emits an expression and returns its value. Recursion is bounded by the parser's nesting
  /// limit; chains of binary operators are walked iteratively.
  private func emit(_ id: ExprID) -> LLVMValueRef {
    if let debugInfo, let debugScope {
      LLVMSetCurrentDebugLocation2(builder.reference, debugInfo.location(at: tree.start(of: id), in: debugScope))
    }
    switch tree[id] {
    case .number(let value):
      return LLVMConstReal(double, value)
    case .variable:
      return LLVMBuildLoad2(builder.reference, double, locals[Int(program.local(of: id).index)], "")
    case .unary(_, let operand):
      let value = emit(operand)
      if let callee = program.callee(of: id) { return call(callee, [value]) }
      return LLVMBuildFNeg(builder.reference, value, "neg")
    case .binary:
      return emitBinaryChain(id)
    case .assign(_, let valueExpr):
      let value = emit(valueExpr)
      LLVMBuildStore(builder.reference, value, locals[Int(program.local(of: id).index)])
      return value
    case .call(_, let list):
      let arguments = tree.arguments(list).map { emit($0) }
      return call(program.callee(of: id)!, arguments)
    case .ifElse(let condition, let then, let otherwise):
      return emitIf(condition: condition, then: then, otherwise: otherwise)
    case .forLoop(let index):
      return emitFor(tree.forLoop(index), variable: locals[Int(program.loopVariable(of: id).index)])
    case .varIn(let index):
      let varIn = tree.varIn(index)
      for (binding, local) in zip(tree.bindings(of: varIn), program.bindingLocals(of: varIn)) {
        let initial = binding.initializer.map { emit($0) } ?? LLVMConstReal(double, 0)
        LLVMBuildStore(builder.reference, initial, locals[Int(local.index)])
      }
      return emit(varIn.body)
    case .error:
      preconditionFailure("a program with errors is never compiled")
    }
  }

  private func emitBinaryChain(_ id: ExprID) -> LLVMValueRef {
    let base = spine.count
    var current = id
    while case .binary(_, let lhs, _) = tree[current] {
      spine.append(current)
      current = lhs
    }
    var value = emit(current)
    while spine.count > base {
      let node = spine.removeLast()
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      let right = emit(rhs)
      if let debugInfo, let debugScope {
        LLVMSetCurrentDebugLocation2(builder.reference, debugInfo.location(at: tree.start(of: node), in: debugScope))
      }
      value = emitBinary(op, value, right, at: node)
    }
    return value
  }

  private func emitBinary(_ op: UInt8, _ lhs: LLVMValueRef, _ rhs: LLVMValueRef, at id: ExprID) -> LLVMValueRef {
    if let callee = program.callee(of: id) { return call(callee, [lhs, rhs]) }
    let b = builder.reference
    switch op {
    case UInt8(ascii: "+"): return LLVMBuildFAdd(b, lhs, rhs, "add")
    case UInt8(ascii: "-"): return LLVMBuildFSub(b, lhs, rhs, "sub")
    case UInt8(ascii: "*"): return LLVMBuildFMul(b, lhs, rhs, "mul")
    case UInt8(ascii: "/"): return LLVMBuildFDiv(b, lhs, rhs, "div")
    case UInt8(ascii: "<"):
      // As the reference does: unordered-or-less-than, then 0.0 or 1.0.
      let bit = LLVMBuildFCmp(b, LLVMRealULT, lhs, rhs, "cmp")
      return LLVMBuildUIToFP(b, bit, double, "bool")
    default:
      preconditionFailure("sema resolves every other operator to a function")
    }
  }

  private func call(_ callee: FunctionID, _ arguments: [LLVMValueRef]) -> LLVMValueRef {
    let type = functionType(arity: arguments.count)
    let target: LLVMValueRef
    if case .interactive(let slotName, _) = linking, program.functions[callee].origin == .defined {
      target = LLVMBuildLoad2(builder.reference, LLVMPointerTypeInContext(context, 0), slot(slotName(program.functions[callee].spelling)), "callee")
    } else {
      target = llvmFunction(callee)
    }
    var values = arguments.map { Optional($0) }
    return values.withUnsafeMutableBufferPointer {
      LLVMBuildCall2(builder.reference, type, target, $0.baseAddress, UInt32(arguments.count), "call")
    }
  }

  /// The external global that holds a REPL function's current address.
  private func slot(_ name: String) -> LLVMValueRef {
    if let existing = LLVMGetNamedGlobal(module.reference, name) { return existing }
    return LLVMAddGlobal(module.reference, LLVMPointerTypeInContext(context, 0), name)
  }

  /// Defines (rather than declares) a slot in this module, initially null.
  func defineSlot(_ name: String) {
    let global = slot(name)
    LLVMSetInitializer(global, LLVMConstNull(LLVMPointerTypeInContext(context, 0)))
  }

  private func truth(_ value: LLVMValueRef, _ name: String) -> LLVMValueRef {
    LLVMBuildFCmp(builder.reference, LLVMRealONE, value, LLVMConstReal(double, 0), name)
  }

  private func block(_ name: String) -> LLVMBasicBlockRef {
    LLVMAppendBasicBlockInContext(context, function, name)
  }

  private func emitIf(condition: ExprID, then: ExprID, otherwise: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let test = truth(emit(condition), "ifcond")
    let thenBlock = block("then")
    let elseBlock = block("else")
    let merge = block("ifcont")
    LLVMBuildCondBr(b, test, thenBlock, elseBlock)

    LLVMPositionBuilderAtEnd(b, thenBlock)
    let thenValue = emit(then)
    let thenEnd = LLVMGetInsertBlock(b)
    LLVMBuildBr(b, merge)

    LLVMPositionBuilderAtEnd(b, elseBlock)
    let elseValue = emit(otherwise)
    let elseEnd = LLVMGetInsertBlock(b)
    LLVMBuildBr(b, merge)

    LLVMPositionBuilderAtEnd(b, merge)
    let phi = LLVMBuildPhi(b, double, "iftmp")!
    var values: [LLVMValueRef?] = [thenValue, elseValue]
    var blocks: [LLVMBasicBlockRef?] = [thenEnd, elseEnd]
    LLVMAddIncoming(phi, &values, &blocks, 2)
    return phi
  }

  private func emitFor(_ loop: ForLoop, variable: LLVMValueRef) -> LLVMValueRef {
    let b = builder.reference
    LLVMBuildStore(b, emit(loop.start), variable)
    switch options.forSemantics {
    case .current:
      // i = start; while end != 0 { body; i = i + step }
      let condition = block("loopcond")
      let body = block("loop")
      let after = block("afterloop")
      LLVMBuildBr(b, condition)
      LLVMPositionBuilderAtEnd(b, condition)
      LLVMBuildCondBr(b, truth(emit(loop.end), "loopcond"), body, after)
      LLVMPositionBuilderAtEnd(b, body)
      _ = emit(loop.body)
      let step = loop.step.map { emit($0) } ?? LLVMConstReal(double, 1)
      let current = LLVMBuildLoad2(b, double, variable, tree.text(loop.variable))
      LLVMBuildStore(b, LLVMBuildFAdd(b, current, step, "nextvar"), variable)
      LLVMBuildBr(b, condition)
      LLVMPositionBuilderAtEnd(b, after)
    case .legacy:
      // i = start; loop { body; s = step; c = end; i = i + s; if c == 0 { break } }
      let body = block("loop")
      let after = block("afterloop")
      LLVMBuildBr(b, body)
      LLVMPositionBuilderAtEnd(b, body)
      _ = emit(loop.body)
      let step = loop.step.map { emit($0) } ?? LLVMConstReal(double, 1)
      let end = emit(loop.end)
      let current = LLVMBuildLoad2(b, double, variable, tree.text(loop.variable))
      LLVMBuildStore(b, LLVMBuildFAdd(b, current, step, "nextvar"), variable)
      LLVMBuildCondBr(b, truth(end, "loopcond"), body, after)
      LLVMPositionBuilderAtEnd(b, after)
    }
    return LLVMConstReal(double, 0)
  }
}
