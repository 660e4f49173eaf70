import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// Variables in the interpreter: locals in the frame's slots, globals in their cells (as
/// compiled code finds them), and the call sites the runtime names in its errors.
extension Interpreter {
  /// "FILE:LINE:COL" of the call at `id`, kept for the runtime as long as the interpreter.
  @inline(never)
  func callSite(of id: ExprID) -> UnsafeMutablePointer<CChar> {
    if let site = callSites[id] { return site }
    let site = strdup("\(program.file.name):\(program.file.location(of: tree.start(of: id)))")!
    callSites[id] = site
    return site
  }

  /// The value of a variable: a local of the current frame, or a global (an array's
  /// handle for an array).
  @inline(__always)
  func read(_ variable: VariableReference) -> Double {
    switch variable {
    case .local(let local): slots[base + Int(local.index)]
    case .global(let global):
      isArrayGlobal[Int(global.index)] ? globalArrays[Int(global.index)].slotValue : globals[number: global]
    }
  }

  /// Assigns a number variable (an array is never assigned as a whole).
  @inline(__always)
  func write(_ value: Double, to variable: VariableReference) {
    switch variable {
    case .local(let local): slots[base + Int(local.index)] = value
    case .global(let global): globals[number: global] = value
    }
  }

  /// Sets a global when its declaration runs: a number, or an array's handle.
  func declare(_ global: GlobalID, value: Double) {
    if isArrayGlobal[Int(global.index)] {
      let handle = ArrayHandle(value)
      globalArrays[Int(global.index)] = handle
      globals.setArray(global, to: arrays[handle.index])
    } else {
      globals[number: global] = value
    }
  }
}
