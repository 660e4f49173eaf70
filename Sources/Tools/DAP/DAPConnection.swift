import KaleidoscopeLSP
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The adapter's side of the Debug Adapter Protocol's stream: framed JSON messages
/// (`MessageReader` reads them, the language server's framing), each outgoing one numbered.
/// Responses come from the request loop; events from the program's thread and the output
/// pumps too, so sending is serialised.
final class DAPConnection: Sendable {
  private let output: Int32
  private let sequence = Mutex(0)

  init(output: Int32) {
    self.output = output
  }

  /// Answers `request` (its `seq` and `command`) with `body`, or with an error `message`.
  func respond(to request: JSON, body: JSON = [:], error message: String? = nil) {
    var fields: [String: JSON] = [
      "type": "response", "request_seq": request["seq"] ?? 0, "command": request["command"] ?? "",
      "success": .bool(message == nil), "body": body,
    ]
    if let message {
      fields["message"] = .string(message)
      fields["body"] = ["error": ["id": 1, "format": .string(message), "showUser": false]]
    }
    send(fields)
  }

  func event(_ name: String, _ body: JSON = [:]) {
    send(["type": "event", "event": .string(name), "body": body])
  }

  private func send(_ fields: [String: JSON]) {
    sequence.withLock { number in
      number += 1
      var message = fields
      message["seq"] = .number(Double(number))
      let body = JSON.object(message).serialized()
      let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
      var written = 0
      while written < frame.count {
        let count = frame[written...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }  // the client is gone
        written += count
      }
    }
  }
}
