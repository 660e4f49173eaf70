/// What the interpreter needs from the world outside the program: extern functions and a
/// place to print values. The tool's host calls the runtime (the JIT's own `putchard`,
/// `printd` and value printer) and resolves externs in the process; tests can record.
public protocol InterpreterHost: AnyObject {
  /// The extern `name`, looked up at its first call: the interpreter calls what this
  /// returns for that call and every later one, with the arguments where it keeps them; nil
  /// if there is no such function, which is a located runtime error at the call.
  func external(named name: String) -> ExternalFunction?
  /// Prints a top-level expression's value (`run` without `-q`).
  func printValue(_ value: Double)
}

/// An extern as its host resolved it (`InterpreterHost.external(named:)`).
public typealias ExternalFunction = (UnsafeBufferPointer<Double>) throws(InterpreterError) -> Double

/// A fault while interpreting: the program, not the interpreter, went wrong.
public enum InterpreterError: Error, Equatable, CustomStringConvertible {
  /// The interpreter's own stack ran out (a body's evaluation, not the calls, which
  /// `KS_CALL_DEPTH_LIMIT` bounds first).
  case stackOverflow
  /// The host could not call an extern.
  case external(String)
  /// A located error of the program's arrays, worded by the runtime as compiled code words
  /// it: `fib.ks:3:7: runtime error: index 10 is out of bounds for 'a' (length 10)`.
  case located(String)
  /// Ctrl-C in the REPL.
  case interrupted
  /// The runtime has reported the error already (machine code or an extern the REPL's
  /// interpreter called faulted).
  case reported

  public var description: String {
    switch self {
    case .stackOverflow: "runtime error: stack overflow"
    case .external(let message): "runtime error: \(message)"
    case .located(let message): message
    case .interrupted: "interrupted"
    case .reported: "runtime error (reported)"
    }
  }
}
