import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// Runtime faults located at a node, worded by the runtime (`ks_describe_*`) exactly as it
/// words them for compiled code, so that every engine prints the same line.
extension Interpreter {
  /// The error of a call at `site` of an extern that resolved to nothing, worded by the
  /// runtime as compiled code words it.
  @inline(never)
  func unresolvedExternError(_ name: String, at site: ExprID) -> InterpreterError {
    located(at: site, capacity: name.utf8.count + 100) { ks_describe_unresolved_extern($0, $1, $2, name) }
  }

  /// A located fault at `site`, its line written by `describe` (into a buffer of its size,
  /// after "FILE:LINE:COL") as the runtime writes it for compiled code.
  func located(
    at site: ExprID, capacity: Int, _ describe: (UnsafeMutablePointer<CChar>, Int, String) -> Int32
  ) -> InterpreterError {
    let site = "\(tree.file.name):\(tree.file.location(of: tree.start(of: site)))"
    var buffer = [CChar](repeating: 0, count: site.utf8.count + capacity)
    let length = buffer.withUnsafeMutableBufferPointer { describe($0.baseAddress!, $0.count, site) }
    let message = String(decoding: buffer[..<min(Int(length), buffer.count - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return fault(.located(message.hasSuffix("\n") ? String(message.dropLast()) : message))
  }
}
