import Dispatch
import KaleidoscopeLSP
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The program's standard output and error, as the client's `output` events.
///
/// The adapter speaks the protocol on copies of its own descriptors 0 and 1; the program's
/// 1 and 2 (where the runtime and externs write) become pipes, read by a pump each. At a
/// stop and at the end, `drain` sends what the program wrote before it, so that its output
/// comes before the `stopped` or `exited` event.
final class OutputCapture: Sendable {
  /// One of the program's output streams: the pipe's reading end, and the event category.
  private struct Stream {
    let descriptor: Int32
    let category: String
  }

  private let connection: DAPConnection
  private let streams: [Stream]
  /// Held while a stream is read, so that `drain` and the pumps send in order.
  private let reading = Mutex(())

  /// Points descriptors 1 and 2 at pipes; nil when a pipe cannot be made.
  init?(connection: DAPConnection) {
    self.connection = connection
    var streams: [Stream] = []
    for (target, category) in [(Int32(1), "stdout"), (2, "stderr")] {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { return nil }
      dup2(ends[1], target)
      close(ends[1])
      _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
      streams.append(Stream(descriptor: ends[0], category: category))
    }
    self.streams = streams
  }

  /// Starts a pump per stream: each sends what arrives, as it arrives.
  func start() {
    for stream in streams {
      Thread.detach(stream.category) { [self] in
        var poller = pollfd(fd: stream.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
          guard poll(&poller, 1, -1) >= 0 || errno == EINTR else { return }
          guard reading.withLock({ _ in forward(stream) }) else { return }
        }
      }
    }
  }

  /// Sends everything written so far.
  func drain() {
    reading.withLock { _ in
      for stream in streams { _ = forward(stream) }
    }
  }

  /// Sends what `stream` holds now; false at its end.
  private func forward(_ stream: Stream) -> Bool {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(stream.descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += chunk[..<count]
        continue
      }
      if !bytes.isEmpty {
        connection.event(
          "output", ["category": .string(stream.category), "output": .string(String(decoding: bytes, as: UTF8.self))])
      }
      return count != 0
    }
  }
}

/// A thread of its own for work that blocks (the pumps, the program). A queue with a label
/// gets one at once; the global queue's threads are as many as the cores, and two pumps
/// blocked in `poll` on two cores would leave the program waiting.
enum Thread {
  static func detach(_ name: String, _ body: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "kaleidoscope.dap.\(name)").async(execute: body)
  }
}
