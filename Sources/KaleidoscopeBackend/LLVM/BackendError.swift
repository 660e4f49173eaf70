import CLLVM

/// What can go wrong in the back end. Every LLVM error crossing the C boundary becomes one
/// of these, with LLVM's message copied and freed.
public enum BackendError: Error, CustomStringConvertible, Sendable {
  /// LLVM reported an error (JIT, target lookup, pass pipeline, object emission).
  case llvm(String)
  /// The IR generator produced invalid IR: a bug in this compiler, not in the program.
  case verification(String)
  /// The target triple is not one LLVM was built with.
  case unknownTarget(String)
  /// The system refused something outside LLVM: writing a file, finding or running the linker.
  case system(String)

  public var description: String {
    switch self {
    case .llvm(let message): "LLVM error: \(message)"
    case .verification(let message): "internal error: invalid IR was generated (please report this):\n\(message)"
    case .unknownTarget(let message), .system(let message): message
    }
  }

  /// Converts an `LLVMErrorRef` (consuming it); `nil` means success.
  static func check(_ error: LLVMErrorRef?) throws {
    guard let error else { return }
    throw BackendError.llvm(consume(error))
  }

  /// Takes the message out of an `LLVMErrorRef`, disposing both.
  static func consume(_ error: LLVMErrorRef) -> String {
    guard let message = LLVMGetErrorMessage(error) else { return "unknown error" }
    defer { LLVMDisposeErrorMessage(message) }
    return String(cString: message)
  }
}

/// Copies and frees a message LLVM allocated with `malloc`-style ownership.
func takeMessage(_ message: UnsafeMutablePointer<CChar>?) -> String {
  guard let message else { return "" }
  defer { LLVMDisposeMessage(message) }
  return String(cString: message)
}
