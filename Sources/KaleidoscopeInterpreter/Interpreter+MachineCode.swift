import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// Calls from the interpreter into compiled code, when running in tiers (`CompiledCode`).
extension Interpreter {
  /// How many functions ran in the interpreter at least once (when running in tiers).
  public var interpretedFunctions: Int { callCounts.count { $0 > 0 } }

  /// The machine code of `function`, if it has some: counting the calls made without it,
  /// and telling the compiler on the first and every `reportInterval`-th (called at `site`,
  /// in the current body).
  func machineCode(
    for function: FunctionID, in compiledCode: CompiledCode, site: ExprID
  ) throws(InterpreterError) -> NativeEntry? {
    let slot = compiledCode.entries + Int(function.index)
    if let entry = ks_tier_load_entry(slot) { return unsafeBitCast(entry, to: NativeEntry.self) }
    let index = Int(function.index)
    callCounts[index] += 1
    let times = callCounts[index]
    guard times == 1 || times % compiledCode.reportInterval == 0 else { return nil }
    try compiledCode.called(function, times: times, at: CallSite(node: site, body: currentBody))
    return ks_tier_load_entry(slot).map { unsafeBitCast($0, to: NativeEntry.self) }
  }

  /// Calls compiled code with the arguments pushed on `slots` from `argumentBase` (popping
  /// them): a number as it is, an array as its elements' address and count.
  func callMachineCode(
    _ entry: NativeEntry, _ function: FunctionID, argumentBase: Int, in compiledCode: CompiledCode
  ) throws(InterpreterError) -> Double {
    nativeArguments.removeAll(keepingCapacity: true)
    // By position: the flags' array held across the loop would be retained at every call.
    for offset in 0..<parameterIsArray[Int(function.index)].count {
      let value = slots[argumentBase + offset]
      if parameterIsArray[Int(function.index)][offset] {
        let storage = arrays[ArrayHandle(value).index]
        nativeArguments.append(Double(bitPattern: UInt64(UInt(bitPattern: storage.elements))))
        nativeArguments.append(Double(bitPattern: UInt64(storage.count)))
      } else {
        nativeArguments.append(value)
      }
    }
    slots.removeLast(slots.count - argumentBase)
    // Compiled code never calls back into the interpreter, so the buffer is not reused
    // while it runs.
    if !compiledCode.callsAreProtected {
      return nativeArguments.withUnsafeMutableBufferPointer { entry($0.baseAddress, callDepth) }
    }
    var result = 0.0
    let faulted = nativeArguments.withUnsafeMutableBufferPointer {
      ks_call_entry_protected(entry, $0.baseAddress, callDepth, &result) != 0
    }
    if faulted { throw InterpreterError.reported }
    return result
  }

  /// Runs the rest of the current loop in machine code, unless its code assumed what the
  /// frame does not hold (false): the body's locals go to it as cells and the numbers come back (an array
  /// variable is never assigned as a whole, and its elements are the same memory in both
  /// tiers).
  func runInMachineCode(_ entry: LoopEntry) -> Bool {
    let locals = program.bodies[currentBody].locals
    nativeArguments.removeAll(keepingCapacity: true)
    for (offset, local) in locals.enumerated() {
      let value = slots[base + offset]
      if local.valueKind == .array {
        // An array declared in the loop's body is out of scope at the top of an iteration,
        // and its slot may name a freed array: it goes as the empty one, since the loop's
        // code declares it again before any use.
        let handle = ArrayHandle(value).index
        let storage = handle < arrays.count ? arrays[handle] : arrays[0]
        nativeArguments.append(Double(bitPattern: UInt64(UInt(bitPattern: storage.elements))))
        nativeArguments.append(Double(bitPattern: UInt64(storage.count)))
      } else {
        nativeArguments.append(value)
        nativeArguments.append(0)
      }
    }
    guard nativeArguments.withUnsafeMutableBufferPointer({ entry($0.baseAddress, callDepth) }) != 0 else { return false }
    for (offset, local) in locals.enumerated() where local.valueKind == .number {
      slots[base + offset] = nativeArguments[2 * offset]
    }
    return true
  }
}
