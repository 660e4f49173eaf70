import CLLVM
import KaleidoscopeFrontend

/// Arithmetic in integers where it is exact (`ExactArithmetic`): an expression of two or
/// more operators on counters, parameters known whole and short literals is computed with
/// integer instructions, then converted once and scaled by a power of two. The result is
/// the double the operations on doubles give, bit for bit; what changes is which units do
/// the work. Spectral-norm's `1 / ((i + j) * (i + j + 1) / 2 + i + 1)` took six additions
/// and multiplications on doubles an element, which a processor with few floating-point
/// adders queues behind its division; C computes it as integers.
extension IRGenerator {
  /// The parameters of `function` known whole (`ExactArithmetic.parameterBits`), by
  /// position, where this module may rely on every call coming from the program: a whole
  /// program run here or tiered, with no debugger, whose functions nothing else calls.
  func parameterBits(of function: FunctionID) -> [Int?] {
    guard options.forSemantics == .current, debugInfo == nil else { return [] }
    switch linking {
    case .wholeProgram(let exported): if exported { return [] }
    case .tiered: break
    case .interactive: return []
    }
    let known = globalFacts().parameters
    return Int(function.index) < known.count ? known[Int(function.index)] : []
  }

  /// Gives each parameter of `body` known whole an integer copy, converted from the double
  /// it arrived as (exactly: it is whole and small), so that arithmetic on it can be exact.
  func startParameterCopies(of body: CheckedBody) {
    guard let function = body.function else { return }
    let b = builder.reference
    for (position, bits) in parameterBits(of: function).enumerated() {
      guard let bits else { continue }
      let copy = LLVMBuildAlloca(b, int64, tree.text(body.locals[position].name) + ".int")!
      LLVMBuildStore(b, LLVMBuildFPToSI(b, loadNumber(from: locals[position]), int64, "")!, copy)
      integerLocals[position] = copy
      activeCounters[Int32(position)] = bits
    }
  }

  /// An argument for a parameter known whole, from its integers when it has them: through
  /// 32 bits, so that once LLVM inlines the call, the callee's conversion back to an
  /// integer meets this one and both go.
  func emitArgument(_ argument: ExprID, to callee: FunctionID, position: Int) -> LLVMValueRef {
    let known = parameterBits(of: callee)
    guard position < known.count, known[position] != nil, let bits = integerBits(argument),
      bits <= ExactArithmetic.argumentBits, !mayBeNegativeZero(argument)
    else { return emit(argument) }
    let b = builder.reference
    return LLVMBuildSIToFP(b, LLVMBuildTrunc(b, emitInteger(argument), int32, "")!, double, "")!
  }

  /// `id` computed in integers, if it is worth it (`exactValueWorthComputing`).
  func emitExactly(_ id: ExprID) -> LLVMValueRef? {
    guard let value = exactValueWorthComputing(id) else { return nil }
    let b = builder.reference
    let converted = LLVMBuildSIToFP(b, emitScaled(id, scale: value.scale), double, "exact")!
    guard value.scale > 0 else { return converted }
    let factor = Double(sign: .plus, exponent: -value.scale, significand: 1)
    return LLVMBuildFMul(b, converted, LLVMConstReal(double, factor), "exact")
  }

  /// What is known of `id`'s value when it is built-in arithmetic with another operator
  /// under it (one operator saves nothing over its conversion), exact and never -0.
  func exactValueWorthComputing(_ id: ExprID) -> ExactArithmetic.Value? {
    guard options.forSemantics == .current, case .binary(let op, let lhs, let rhs) = tree[id],
      op != UInt8(ascii: "<"), program.callee(of: id) == nil
    else { return nil }
    let nested = [lhs, rhs].contains { operand in
      switch tree[operand] {
      case .unary, .binary: return true
      case .number, .variable, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .length, .arrayLiteral,
        .string, .globalDeclaration, .error:
        return false
      }
    }
    guard nested, let value = exactArithmetic.value(of: id), !mayBeNegativeZero(id) else { return nil }
    return value
  }

  /// `id`'s value times 2^`scale` as an `i64`, for an `id` that `ExactArithmetic` knows
  /// with at most that scale. No operation overflows: each stays below 2^53.
  func emitScaled(_ id: ExprID, scale: Int) -> LLVMValueRef {
    let b = builder.reference
    switch tree[id] {
    case .number(let value):
      let scaled = value * Double(sign: .plus, exponent: scale, significand: 1)
      return LLVMConstInt(int64, UInt64(bitPattern: Int64(scaled)), 1)
    case .variable, .length:
      return shifted(wholeInteger(id), by: scale)
    case .unary(_, let operand):
      return LLVMBuildNSWNeg(b, emitScaled(operand, scale: scale), "")
    case .binary(let op, let lhs, let rhs):
      switch op {
      case UInt8(ascii: "+"):
        return LLVMBuildNSWAdd(b, emitScaled(lhs, scale: scale), emitScaled(rhs, scale: scale), "")
      case UInt8(ascii: "-"):
        return LLVMBuildNSWSub(b, emitScaled(lhs, scale: scale), emitScaled(rhs, scale: scale), "")
      case UInt8(ascii: "*"):
        let left = exactArithmetic.value(of: lhs)!.scale
        return LLVMBuildNSWMul(b, emitScaled(lhs, scale: left), emitScaled(rhs, scale: scale - left), "")
      default:
        // A division by 2^p: the dividend at p less.
        guard case .number(let divisor) = tree[rhs], let exponent = ExactArithmetic.exponent(ofPowerOfTwo: divisor) else {
          preconditionFailure("ExactArithmetic accepts no other divisor")
        }
        return emitScaled(lhs, scale: scale - exponent)
      }
    case .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string, .globalDeclaration,
      .error:
      preconditionFailure("ExactArithmetic accepts no other node")
    }
  }

  /// A variable or a length known whole, as an `i64`.
  private func wholeInteger(_ id: ExprID) -> LLVMValueRef {
    let b = builder.reference
    guard case .variable = tree[id] else { return loadArray(of: program.variable(of: id)).count }
    switch program.variable(of: id) {
    case .local(let local):
      return LLVMBuildLoad2(b, int64, integerLocals[Int(local.index)]!, "counter")
    case .global(let global):
      if let value = fixedValue(of: global) { return LLVMConstInt(int64, UInt64(bitPattern: Int64(value)), 1) }
      // Known whole (0, or its literal initialiser), so the conversion is exact.
      return LLVMBuildFPToSI(b, loadNumber(from: storage(of: .global(global))), int64, "")
    }
  }

  private func shifted(_ value: LLVMValueRef, by scale: Int) -> LLVMValueRef {
    guard scale > 0 else { return value }
    return LLVMBuildNSWMul(builder.reference, value, LLVMConstInt(int64, UInt64(1) << UInt64(scale), 0), "")
  }
}
