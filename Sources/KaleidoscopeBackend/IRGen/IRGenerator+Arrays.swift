import CLLVM
import KaleidoscopeFrontend

/// Arrays and globals in IR (SPEC §5): where each variable lives, arrays made and freed
/// through the runtime, and the checked element access.
extension IRGenerator {
  /// Where a variable lives: its alloca, or its global.
  func storage(of variable: VariableReference) -> LLVMValueRef {
    switch variable {
    case .local(let local): locals[Int(local.index)]
    case .global(let global): globalVariable(global)
    }
  }

  /// The LLVM global of a Kaleidoscope global, declared on first use: a `double`, or an
  /// array's `{ ptr, i64 }`, zero (an empty array) until its declaration runs.
  func globalVariable(_ id: GlobalID) -> LLVMValueRef {
    if let existing = globals[Int(id.index)] { return existing }
    let symbol = program.globals[id]
    let type = symbol.kind == .number ? double : arrayType
    let value: LLVMValueRef
    switch linking {
    case .wholeProgram(let exported):
      value = LLVMAddGlobal(module.reference, type, Self.definitionName(symbol.spelling))
      LLVMSetInitializer(value, LLVMConstNull(type))
      if !exported { LLVMSetLinkage(value, LLVMInternalLinkage) }
      debugInfo?.global(value, name: symbol.spelling, kind: symbol.kind, at: symbol.range.start, isLocal: !exported)
    case .interactive(let names):
      let name = names.global(symbol.spelling)
      value = LLVMGetNamedGlobal(module.reference, name) ?? LLVMAddGlobal(module.reference, type, name)
      if names.definesGlobal(symbol.spelling) { LLVMSetInitializer(value, LLVMConstNull(type)) }
    case .tiered:
      value = LLVMAddGlobal(module.reference, type, Self.tieredGlobalName(symbol.spelling))
    }
    globals[Int(id.index)] = value
    return value
  }

  func storeArray(elements: LLVMValueRef, count: LLVMValueRef, into storage: LLVMValueRef) {
    let b = builder.reference
    aliasInfo.tag(LLVMBuildStore(b, elements, LLVMBuildStructGEP2(b, arrayType, storage, 0, "")), .arrayElements)
    aliasInfo.tag(LLVMBuildStore(b, count, LLVMBuildStructGEP2(b, arrayType, storage, 1, "")), .arrayCount)
  }

  func loadArray(from storage: LLVMValueRef) -> (elements: LLVMValueRef, count: LLVMValueRef) {
    let b = builder.reference
    let elements = LLVMBuildLoad2(b, pointer, LLVMBuildStructGEP2(b, arrayType, storage, 0, ""), "elements")!
    let count = LLVMBuildLoad2(b, int64, LLVMBuildStructGEP2(b, arrayType, storage, 1, ""), "count")!
    aliasInfo.tag(elements, .arrayElements)
    aliasInfo.tag(count, .arrayCount)
    return (elements, count)
  }

  /// The value of a number global that this module has as a constant (`fixedGlobals`).
  func fixedValue(of global: GlobalID) -> Double? {
    fixedGlobals.numbers[global.index]
  }

  /// An array variable's elements and count: for a global array whose count this module
  /// has as a constant (`fixedGlobals`), that constant, and its elements read from its cell,
  /// in a tiered module once (LLVM may take the read anywhere: the declaration has run),
  /// else as any read; otherwise both loaded from its storage. The elements' address is not
  /// written in: it differs from run to run, and a module's IR, hence its machine code,
  /// should not, so that a later run may reuse it.
  func loadArray(of variable: VariableReference) -> (elements: LLVMValueRef, count: LLVMValueRef) {
    if case .global(let global) = variable, let count = fixedGlobals.arrays[global.index] {
      let b = builder.reference
      let cell = LLVMBuildStructGEP2(b, arrayType, storage(of: variable), 0, "")
      let elements = LLVMBuildLoad2(b, pointer, cell, "elements")!
      aliasInfo.tag(elements, .arrayElements)
      // A whole program's module holds the declaration's store too.
      if case .tiered = linking { aliasInfo.markInvariant(elements) }
      return (elements, LLVMConstInt(int64, count, 0))
    }
    return loadArray(from: storage(of: variable))
  }

  /// Whether the array a variable names keeps 64-bit integers
  /// (`WholeIndexAnalysis.integerArrays`, as the interpreter of a tiered run is told): only
  /// global arrays of a whole program, and not with debug information, where a debugger
  /// reads the elements as the doubles the language has.
  func holdsIntegers(_ variable: VariableReference) -> Bool {
    guard case .global(let global) = variable, debugInfo == nil, indices.knowsEveryAssignment else { return false }
    return globalFacts().integerArrays[Int(global.index)]
  }

  /// Reads the element at `address` of the array the node at `node` accesses, as a number.
  func loadElement(at address: LLVMValueRef, node: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let variable = program.variable(of: node)
    guard holdsIntegers(variable), case .global(let global) = variable else {
      let element = LLVMBuildLoad2(b, double, address, "element")!
      aliasInfo.tag(element, .element)
      return element
    }
    let integer = LLVMBuildLoad2(b, int64, address, "element.integer")!
    aliasInfo.tag(integer, .element)
    if let fact = globalFacts().stable[Int(global.index)] {
      // What the proof knows (below 2^52) bounds the integer, so LLVM can drop conversions
      // back to it and do arithmetic on it in integers.
      let bound = Int64(1) << fact.bits
      let lower = fact.sign == .nonNegative ? 0 : 1 - bound
      aliasInfo.markRange(
        integer, lower: LLVMConstInt(int64, UInt64(bitPattern: lower), 1), upper: LLVMConstInt(int64, UInt64(bound), 1))
    }
    return LLVMBuildSIToFP(b, integer, double, "element")
  }

  /// Writes `value` to the element at `address` of the array the node at `node` accesses.
  func storeElement(_ value: LLVMValueRef, at address: LLVMValueRef, node: ExprID) {
    let b = builder.reference
    let stored = holdsIntegers(program.variable(of: node)) ? LLVMBuildFPToSI(b, value, int64, "")! : value
    aliasInfo.tag(LLVMBuildStore(b, stored, address), .element)
  }

  /// Loads a number variable (a local's alloca or a global).
  func loadNumber(from storage: LLVMValueRef) -> LLVMValueRef {
    let value = LLVMBuildLoad2(builder.reference, double, storage, "")!
    aliasInfo.tag(value, .number)
    return value
  }

  /// Stores a number variable.
  func storeNumber(_ value: LLVMValueRef, into storage: LLVMValueRef) {
    aliasInfo.tag(LLVMBuildStore(builder.reference, value, storage), .number)
  }

  /// The address of element `index` of the array the node at `node` accesses, once the index
  /// is known to be a whole number below the array's count; otherwise the runtime reports
  /// the located error and stops (a cold block ending in `unreachable`).
  ///
  /// The index is converted to an integer and back: only a whole number survives the round
  /// trip, and one unsigned comparison with the count then rejects a negative or too large
  /// one. The conversion is `fptosi`, frozen: for NaN or a double beyond 64 bits `fptosi` is
  /// poison, which `freeze` turns into some fixed integer, and whatever integer it is, the
  /// round trip or the comparison rejects that index. It is one instruction on x86-64 and
  /// AArch64, and LLVM sees through it when the index was an integer all along (a loop
  /// counter it has turned into one), which lets it drop the check. When the index is
  /// proved whole and small enough (`WholeIndexAnalysis`), the conversion is exact and the
  /// round trip is left out; the comparison alone keeps every access in bounds. It is
  /// signed whenever that is exact (below 2^63), even for an index known not to be
  /// negative: accesses to one index then share their conversion and their check whatever
  /// is known at each (`a[p]` tested, then `a[p]` again once `p` has passed).
  func elementPointer(of array: Name, at index: LLVMValueRef, node: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let (elements, count) = loadArray(of: program.variable(of: node))
    let known = indices.current.wholeIndices[node]
    let onlyUnsignedIsExact = (known?.bits ?? 0) > 63
    let converted =
      onlyUnsignedIsExact ? LLVMBuildFPToUI(b, index, int64, "")! : LLVMBuildFPToSI(b, index, int64, "")!
    let position = LLVMBuildFreeze(b, converted, "position")!
    let whole = known != nil ? nil : LLVMBuildFCmp(b, LLVMRealOEQ, LLVMBuildSIToFP(b, position, double, ""), index, "whole")
    let inBounds = LLVMBuildICmp(b, LLVMIntULT, position, count, "inbounds")!
    let valid = whole.map { LLVMBuildAnd(b, $0, inBounds, "valid")! } ?? inBounds
    let ok = block("index.ok")
    let error = block("index.error")
    LLVMBuildCondBr(b, valid, ok, error)
    LLVMPositionBuilderAtEnd(b, error)
    reportIndexError(array, index: index, count: count, node: node)
    LLVMPositionBuilderAtEnd(b, ok)
    var indices: [LLVMValueRef?] = [position]
    return LLVMBuildInBoundsGEP2(b, double, elements, &indices, 1, "element.address")
  }

  /// The located error of a bad index, in a cold block that ends there.
  func reportIndexError(_ array: Name, index: LLVMValueRef, count: LLVMValueRef, node: ExprID) {
    let report = runtimeFunction(
      "ks_index_error", returning: LLVMVoidTypeInContext(context), parameters: [pointer, double, int64],
      attributes: ["noreturn", "cold", "nounwind"])
    callRuntime(report, [site(tree.start(of: node), name: tree.text(array)), index, count])
    LLVMBuildUnreachable(builder.reference)
  }

  /// An element's address, its index computed in integers when it can be
  /// (`IRGenerator+IntegerCounters.swift`), else as a double and converted.
  func elementPointer(of array: Name, index: ExprID, node: ExprID) -> LLVMValueRef {
    if integerBits(index) != nil {
      return elementPointer(of: array, position: emitInteger(index), index: index, node: node)
    }
    return elementPointer(of: array, at: emit(index), node: node)
  }

  /// A new array of `size` zeros (a `double`): the runtime checks the size and allocates
  /// (`apart` from other arrays, for a global: `ks_array_new_apart`), or reports the located
  /// error and stops.
  func makeArray(
    size: LLVMValueRef, name: String, at start: Int, apart: Bool = false
  ) -> (elements: LLVMValueRef, count: LLVMValueRef) {
    let make = runtimeFunction(
      apart ? "ks_array_make_apart" : "ks_array_make", returning: pointer, parameters: [double, pointer],
      attributes: ["nounwind"])
    let elements = callRuntime(make, [size, site(start, name: name)], "elements")
    // The runtime has checked that the size is a whole number that fits.
    let count = LLVMBuildFPToUI(builder.reference, size, int64, "count")!
    return (elements, count)
  }

  /// A new array holding an array literal's values or a string's bytes, as integers if
  /// `holdsIntegers`, and `apart` as `makeArray(size:)` says.
  func makeArray(
    fromLiteral literal: ExprID, name: String, at start: Int, holdsIntegers: Bool = false, apart: Bool = false
  ) -> (elements: LLVMValueRef, count: LLVMValueRef) {
    let b = builder.reference
    switch tree[literal] {
    case .arrayLiteral(let list):
      // The elements are evaluated before the array is made, as the interpreter does.
      let values = tree.arguments(list).map { emit($0) }
      let array = makeArray(size: LLVMConstReal(double, Double(values.count)), name: name, at: start, apart: apart)
      for (offset, value) in values.enumerated() {
        var indices: [LLVMValueRef?] = [LLVMConstInt(int64, UInt64(offset), 0)]
        let stored = holdsIntegers ? LLVMBuildFPToSI(b, value, int64, "")! : value
        let address = LLVMBuildInBoundsGEP2(b, double, array.elements, &indices, 1, "")
        aliasInfo.tag(LLVMBuildStore(b, stored, address), .element)
      }
      return array
    case .string(let index):
      let bytes = tree.string(index)
      let array = makeArray(size: LLVMConstReal(double, Double(bytes.count)), name: name, at: start, apart: apart)
      if !bytes.isEmpty {
        let type = holdsIntegers ? int64 : double
        var values: [LLVMValueRef?] = bytes.map {
          holdsIntegers ? LLVMConstInt(int64, UInt64($0), 0) : LLVMConstReal(double, Double($0))
        }
        let constant = LLVMConstArray2(type, &values, UInt64(values.count))!
        let text = LLVMAddGlobal(module.reference, LLVMTypeOf(constant), "string")!
        LLVMSetInitializer(text, constant)
        LLVMSetGlobalConstant(text, 1)
        LLVMSetLinkage(text, LLVMPrivateLinkage)
        LLVMBuildMemCpy(b, array.elements, 8, text, 8, LLVMConstInt(int64, UInt64(bytes.count * 8), 0))
      }
      return array
    default:
      preconditionFailure("sema makes arrays only from literals and strings")
    }
  }

  func freeArray(_ elements: LLVMValueRef) {
    let free = runtimeFunction(
      "ks_array_free", returning: LLVMVoidTypeInContext(context), parameters: [pointer], attributes: ["nounwind"])
    callRuntime(free, [elements])
  }

  /// Stores what a `var` binding makes into `storage` (its alloca or global): a number, or a
  /// new array (of integers if `holdsIntegers`; a global's `apart` from other arrays), whose
  /// elements are returned for the caller to free when their scope ends.
  @discardableResult
  func emitValue(
    of binding: VarBinding, into storage: LLVMValueRef, local: LocalID? = nil, holdsIntegers: Bool = false,
    apart: Bool = false
  ) -> LLVMValueRef? {
    let array: (elements: LLVMValueRef, count: LLVMValueRef)
    switch binding.value {
    case .number(let initializer):
      let value = initializer.map { emit($0) } ?? LLVMConstReal(double, 0)!
      if let local { storeIntegral(value, of: initializer, into: .local(local)) }
      storeNumber(value, into: storage)
      return nil
    case .zeros(let count):
      array = makeArray(size: emit(count), name: tree.text(binding.name), at: binding.nameRange.start, apart: apart)
    case .elements(let literal):
      array = makeArray(
        fromLiteral: literal, name: tree.text(binding.name), at: binding.nameRange.start, holdsIntegers: holdsIntegers,
        apart: apart)
    }
    storeArray(elements: array.elements, count: array.count, into: storage)
    return array.elements
  }

  /// A constant "FILE:LINE:COL", a NUL, then `name`: where a runtime error is, for the runtime.
  func site(_ start: Int, name: String) -> LLVMValueRef {
    let text = "\(program.file.name):\(program.file.location(of: start))\0\(name)"
    let constant = text.withCString { LLVMConstStringInContext2(context, $0, text.utf8.count, 0)! }
    let global = LLVMAddGlobal(module.reference, LLVMTypeOf(constant), "site")!
    LLVMSetInitializer(global, constant)
    LLVMSetGlobalConstant(global, 1)
    LLVMSetLinkage(global, LLVMPrivateLinkage)
    LLVMSetUnnamedAddress(global, LLVMGlobalUnnamedAddr)
    return global
  }

  /// Calls an LLVM intrinsic, overloaded on `overloads`.
  func callIntrinsic(_ name: String, overloads: [LLVMTypeRef], _ arguments: [LLVMValueRef], _ result: String) -> LLVMValueRef {
    let id = LLVMLookupIntrinsicID(name, name.utf8.count)
    var types = overloads.map { Optional($0) }
    let declaration = LLVMGetIntrinsicDeclaration(module.reference, id, &types, types.count)!
    let type = LLVMIntrinsicGetType(context, id, &types, types.count)!
    var values = arguments.map { Optional($0) }
    return LLVMBuildCall2(builder.reference, type, declaration, &values, UInt32(values.count), result)
  }
}
