import Hummingbird
import Logging
import NIOCore

/// One line per request on standard error, once it is answered: method, path, status, time
/// and client, like a web server's access log.
struct RequestLog: RouterMiddleware {
  typealias Context = PlaygroundContext
  let logger: Logger

  func handle(
    _ request: Request, context: PlaygroundContext, next: (Request, PlaygroundContext) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    do {
      let response = try await next(request, context)
      log(request, status: response.status.code, since: start, client: context.client)
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      log(request, status: status, since: start, client: context.client)
      throw error
    }
  }

  private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, client: String) {
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    let rounded = (milliseconds * 10).rounded() / 10
    logger.info("\(request.method) \(request.uri.path) \(status) \(rounded) ms \(client)")
  }
}
