import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// One log line per request, once it is answered: method, path, status, time and client,
/// like a web server's access log, with the request's id: the client's `X-Request-Id` when
/// it sent a usable one, else a new one. The answer carries the id back.
struct RequestLog: RouterMiddleware {
  typealias Context = PlaygroundContext
  let logger: Logger
  let trustedProxies: Set<String>
  let metrics: PlaygroundMetrics

  func handle(
    _ request: Request, context: PlaygroundContext, next: (Request, PlaygroundContext) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let id = Self.requestID(request.headers[.xRequestID])
    do {
      var response = try await next(request, context)
      response.headers[.xRequestID] = id
      log(request, id: id, status: response.status.code, since: start, client: client(of: request, context))
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      log(request, id: id, status: status, since: start, client: client(of: request, context))
      throw error
    }
  }

  private func client(of request: Request, _ context: PlaygroundContext) -> String {
    ClientAddress.resolve(
      peer: context.client, forwardedFor: request.headers[.xForwardedFor], trusted: trustedProxies)
  }

  /// The client's id when it is 1 to 128 letters, digits, `-`, `_` or `.`; else a new one
  /// (64 random bits in hexadecimal).
  static func requestID(_ given: String?) -> String {
    if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(isIDByte) { return given }
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() as UInt64
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  private static func isIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
      true
    default: false
    }
  }

  /// The paths that health checks and metric scrapers ask for.
  static let probes: Set<String> = ["/healthz", "/readyz", "/metrics"]

  private func log(_ request: Request, id: String, status: Int, since start: ContinuousClock.Instant, client: String) {
    metrics.request(path: request.uri.path, status: status)
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    let rounded = (milliseconds * 10).rounded() / 10
    // A balancer asks each replica whether it is ready twice a second: those answers are
    // logged only when they are not 200, or at the debug level.
    let isProbe = Self.probes.contains(request.uri.path) && status == 200
    logger.log(
      level: isProbe ? .debug : .info,
      "\(request.method) \(request.uri.path) \(status)",
      metadata: [
        "request_id": "\(id)", "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
        "ms": "\(rounded)", "client": "\(client)",
      ])
  }
}

extension HTTPField.Name {
  /// The request's id, from the client or made by the server (SPEC §9).
  static let xRequestID = Self("X-Request-Id")!
  /// The addresses a request passed through, each proxy appending the one it saw.
  static let xForwardedFor = Self("X-Forwarded-For")!
  /// Whether the answer came from the result cache: `hit` or `miss` (SPEC §9).
  static let xCache = Self("X-Cache")!
}
