import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads `Content-Length`-framed messages from a file descriptor: the framing of the
/// language server's JSON-RPC and of the debug adapter's protocol (`kaleidoscope dap`).
public struct MessageReader {
  /// What reading produced: a message's body, a frame without a usable header, or the end.
  public enum Frame {
    case message([UInt8])
    case malformed
    case end
  }

  /// The largest body accepted (64 MiB); a larger length is a malformed frame.
  static let bodyLimit = 64 << 20

  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var position = 0

  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  public mutating func next() -> Frame {
    var length: Int?
    // Header lines up to an empty one; only Content-Length matters.
    while true {
      guard let line = readLine() else { return .end }
      if line.isEmpty { break }
      let text = String(decoding: line, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else { continue }
      if text[..<colon].lowercased() == "content-length" {
        length = Int(String(text[text.index(after: colon)...]).trimmingSpaces)
      }
    }
    guard let length, length >= 0, length <= Self.bodyLimit else { return .malformed }
    guard let body = read(length) else { return .end }
    return .message(body)
  }

  /// One header line, without its CR LF (a bare LF is accepted too).
  private mutating func readLine() -> [UInt8]? {
    var line: [UInt8] = []
    while true {
      guard let byte = readByte() else { return line.isEmpty ? nil : line }
      if byte == UInt8(ascii: "\n") {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
      }
      line.append(byte)
      if line.count > 4096 { return line }  // not a header: give it up as a line
    }
  }

  private mutating func readByte() -> UInt8? {
    if position == buffer.count && !fill() { return nil }
    defer { position += 1 }
    return buffer[position]
  }

  private mutating func read(_ count: Int) -> [UInt8]? {
    var body: [UInt8] = []
    body.reserveCapacity(count)
    while body.count < count {
      if position == buffer.count && !fill() { return nil }
      let take = min(count - body.count, buffer.count - position)
      body += buffer[position..<position + take]
      position += take
    }
    return body
  }

  private mutating func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      buffer = Array(chunk[..<count])
      position = 0
      return true
    }
  }
}

/// Writes framed messages to a file descriptor (standard output: nothing else may be
/// written there while the server runs).
final class MessageWriter: MessageSink {
  private let descriptor: Int32

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  func send(_ message: OutgoingMessage) {
    let body = message.encoded()
    let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    var written = 0
    while written < frame.count {
      let count = frame[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }  // the client is gone; `exit` or the end of input follows
      written += count
    }
  }
}

/// Runs a server on standard input and output until `exit` or the end of input.
///
/// A reader thread queues the messages as they arrive, and notes at once the requests a
/// `$/cancelRequest` cancels; a request cancelled before the server reaches it is answered
/// as cancelled. The server takes all the queued messages at a time and publishes
/// diagnostics when it has handled them, so a burst of changes is checked once, after the
/// last of them. The queue and the cancelled ids are all the two threads share, reached only
/// through `lock` (a serial queue).
public final class MessageLoop: @unchecked Sendable {
  private let lock = DispatchQueue(label: "kaleidoscope.lsp.queue")
  private let arrived = DispatchSemaphore(value: 0)
  private var queue: [(frame: MessageReader.Frame, message: IncomingMessage?)] = []
  private var cancelled: Set<JSON> = []

  public init() {}

  /// Serves until the client says `exit` (the status is 0 after `shutdown`, else 1) or
  /// closes the input (status 1).
  public func run(input: Int32 = 0, output: Int32 = 1) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let server = LanguageServer(sink: MessageWriter(descriptor: output))
    DispatchQueue(label: "kaleidoscope.lsp.reader").async { [self] in
      var reader = MessageReader(descriptor: input)
      while true {
        let frame = reader.next()
        enqueue(frame)
        if case .end = frame { return }
      }
    }
    while true {
      for (frame, message) in takeAll() {
        switch frame {
        case .end:
          server.publishDiagnostics()
          return server.exitCode ?? 1
        case .malformed:
          server.handleMalformed()
        case .message:
          guard let message else {
            server.handleMalformed()
            continue
          }
          server.handle(message, cancelled: message.id.map(takeCancellation) ?? false)
          if let code = server.exitCode { return code }
        }
      }
      server.publishDiagnostics()
      if lock.sync(execute: { queue.isEmpty }) { server.prepareIndexes() }
    }
  }

  private func enqueue(_ frame: MessageReader.Frame) {
    var message: IncomingMessage?
    if case .message(let body) = frame { message = IncomingMessage(body: Data(body)) }
    lock.sync {
      queue.append((frame, message))
      if let message, message.method == "$/cancelRequest", let cancel = try? message.params(as: CancelParams.self) {
        cancelled.insert(cancel.id)
      }
    }
    arrived.signal()
  }

  /// Waits for a message, then takes every one queued.
  private func takeAll() -> [(frame: MessageReader.Frame, message: IncomingMessage?)] {
    arrived.wait()
    let batch = lock.sync {
      defer { queue.removeAll() }
      return queue
    }
    // One signal per message: the rest of the batch's are taken too.
    for _ in 1..<max(1, batch.count) { arrived.wait() }
    return batch
  }

  /// Whether the request `id` was cancelled (forgetting the cancellation).
  private func takeCancellation(_ id: JSON) -> Bool {
    lock.sync { cancelled.remove(id) != nil }
  }
}
