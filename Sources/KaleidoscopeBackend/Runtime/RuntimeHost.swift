import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// The interpreter's host in the tool: externs resolve in this process exactly as the JIT's
/// do (the runtime's `putchard`/`printd`, the C library, libm), and values are printed by the
/// runtime, through the same output buffer. So `run --tier interp` and `run` print
/// byte for byte the same.
public final class RuntimeHost: InterpreterHost {
  /// A C function `double f(double, ...)`, by arity.
  private typealias Address = UnsafeMutableRawPointer
  /// Whether a fault in an extern ends the interpreter's run with
  /// `InterpreterError.reported` (the REPL) rather than the process.
  private let protectsCalls: Bool

  public init(protectsCalls: Bool = false) {
    self.protectsCalls = protectsCalls
  }

  public func printValue(_ value: Double) {
    ks_print_value(value)
  }

  /// The extern `name` found in this process, or nil: the interpreter then reports the call
  /// as compiled code does.
  public func external(named name: String) -> ExternalFunction? {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    if protectsCalls {
      return { arguments throws(InterpreterError) in try Self.callProtected(name, address, arguments) }
    }
    return { arguments throws(InterpreterError) in try Self.call(address, arguments, name: name) }
  }

  private static func callProtected(
    _ name: String, _ address: Address, _ arguments: UnsafeBufferPointer<Double>
  ) throws(InterpreterError) -> Double {
    guard arguments.count <= 8 else {
      throw InterpreterError.external("the interpreter calls externs of at most 8 parameters; '\(name)' has \(arguments.count)")
    }
    var result = 0.0
    if ks_call_extern_protected(address, arguments.baseAddress, Int32(arguments.count), &result) != 0 {
      throw InterpreterError.reported
    }
    return result
  }

  private typealias F0 = @convention(c) () -> Double
  private typealias F1 = @convention(c) (Double) -> Double
  private typealias F2 = @convention(c) (Double, Double) -> Double
  private typealias F3 = @convention(c) (Double, Double, Double) -> Double
  private typealias F4 = @convention(c) (Double, Double, Double, Double) -> Double
  private typealias F5 = @convention(c) (Double, Double, Double, Double, Double) -> Double
  private typealias F6 = @convention(c) (Double, Double, Double, Double, Double, Double) -> Double
  private typealias F7 = @convention(c) (Double, Double, Double, Double, Double, Double, Double) -> Double
  private typealias F8 = @convention(c) (Double, Double, Double, Double, Double, Double, Double, Double) -> Double

  /// Calls a C function of `arguments.count` doubles. The eight double registers of the
  /// x86-64 and AArch64 calling conventions bound what can be called without an FFI library.
  /// The runtime has the same switch in C for protected calls; this one stays in Swift
  /// because calling through the runtime's is slower on extern-heavy programs (the figure
  /// is in commit 9382522).
  private static func call(
    _ address: Address, _ a: UnsafeBufferPointer<Double>, name: String
  ) throws(InterpreterError) -> Double {
    switch a.count {
    case 0: return unsafeBitCast(address, to: F0.self)()
    case 1: return unsafeBitCast(address, to: F1.self)(a[0])
    case 2: return unsafeBitCast(address, to: F2.self)(a[0], a[1])
    case 3: return unsafeBitCast(address, to: F3.self)(a[0], a[1], a[2])
    case 4: return unsafeBitCast(address, to: F4.self)(a[0], a[1], a[2], a[3])
    case 5: return unsafeBitCast(address, to: F5.self)(a[0], a[1], a[2], a[3], a[4])
    case 6: return unsafeBitCast(address, to: F6.self)(a[0], a[1], a[2], a[3], a[4], a[5])
    case 7: return unsafeBitCast(address, to: F7.self)(a[0], a[1], a[2], a[3], a[4], a[5], a[6])
    case 8: return unsafeBitCast(address, to: F8.self)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
    default:
      throw InterpreterError.external("the interpreter calls externs of at most 8 parameters; '\(name)' has \(a.count)")
    }
  }
}

/// The runtime's value format (SPEC §4), for what tools show.
public enum RuntimeValues {
  /// `42`, `0.1`, `nan`: as `run` prints a value, without the line break.
  public static func format(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = ks_format_value(value, &buffer, buffer.count)
    return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
