import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 client over a socket, so tests can send what a browser would not (bodies
/// too large, broken JSON) and choose the client's address (127.0.0.2 is another client on
/// loopback, for the per-client limits).
enum HTTPClient {
  /// One answer.
  struct Reply {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
    }
  }

  /// A request that could not be sent, or got no well-formed reply.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Sends one request on a new connection and reads the whole reply.
  static func send(
    _ method: String, _ path: String, port: Int, body: Data? = nil, from source: String = "127.0.0.1",
    headers: [String: String] = [:]
  ) throws -> Reply {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
    defer { close(socket) }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var local = address(source, port: 0)
    var remote = address("127.0.0.1", port: port)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw Failure(description: "bind \(source): \(errno)") }
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw Failure(description: "connect to port \(port): \(errno)") }
    var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    if let body { request += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
    let bytes = Data((request + "\r\n").utf8) + (body ?? Data())
    // The server may answer (413) and close before reading all of a large body.
    _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return try parse(received)
  }

  /// `send` with a JSON object as the body.
  static func post(_ path: String, port: Int, json: [String: Any], from source: String = "127.0.0.1") throws -> Reply {
    try send("POST", path, port: port, body: try JSONSerialization.data(withJSONObject: json), from: source)
  }

  private static func parse(_ data: Data) throws -> Reply {
    guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
      throw Failure(description: "no complete reply: \(String(decoding: data, as: UTF8.self))")
    }
    let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = head[0].split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line \(head[0])") }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[end.upperBound...])
    if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
    return Reply(status: status, headers: headers, body: body)
  }

  private static func dechunk(_ data: Data) -> Data {
    var out = Data()
    var rest = data[...]
    while let lineEnd = rest.range(of: Data("\r\n".utf8)),
      let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0
    {
      let start = lineEnd.upperBound
      out.append(rest[start..<min(rest.endIndex, start + size)])
      rest = rest[min(rest.endIndex, start + size + 2)...]
    }
    return out
  }

  private static func address(_ host: String, port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    return address
  }
}
