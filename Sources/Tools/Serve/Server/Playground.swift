import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The web playground (`kaleidoscope serve`): the page, the API over the sandbox, and the
/// snippet store, as one Hummingbird application.
public enum Playground {
  /// How the server is set up (`kaleidoscope serve`'s options).
  public struct Configuration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// An SQLite path, a `postgresql://` URL, or nil for the default SQLite file.
    public var database: String?
    /// The `kaleidoscope` executable that runs each sandboxed process.
    public var tool: String
    public var workers = max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)
    public var queueLimit = 64
    public var rateLimitPerMinute = 600
    /// Proxies whose `X-Forwarded-For` names the client (`ClientAddress`).
    public var trustedProxies: Set<String> = []
    /// Where the examples menu finds its programs.
    public var examples: String?

    public init(tool: String) {
      self.tool = tool
    }
  }

  /// Runs the server until SIGTERM or SIGINT, then lets the requests in flight finish
  /// (`shutdownConfiguration`).
  public static func run(_ configuration: Configuration) async throws {
    LoggingSystem.bootstrap { JSONLinesLogHandler(label: $0) }
    var logger = Logger(label: "kaleidoscope.serve")
    logger.logLevel = .info
    let store: any SnippetStore
    var postgres: PostgresSnippetStore?
    if let database = configuration.database, database.hasPrefix("postgres") {
      postgres = try PostgresSnippetStore(url: database, logger: logger)
      store = postgres!
    } else {
      let path = configuration.database ?? SQLiteSnippetStore.defaultPath
      do {
        store = try await SQLiteSnippetStore.open(path: path)
      } catch {
        throw PlaygroundError.configuration("cannot open the snippet database '\(path)': \(Self.reason(error))")
      }
    }
    let api = PlaygroundAPI(configuration: configuration, store: store, logger: logger)
    let router = Router(context: PlaygroundContext.self)
    router.middlewares.add(
      RequestLog(logger: logger, trustedProxies: configuration.trustedProxies, metrics: api.metrics))
    api.register(on: router)
    let host = configuration.host
    let app = Application(
      router: router,
      // A client that stops sending (half a request, or nothing) is dropped after 30 s.
      server: .http1(configuration: .init(idleTimeout: .seconds(30))),
      configuration: .init(address: .hostname(host, port: configuration.port), serverName: "kaleidoscope"),
      services: postgres.map { [$0.client] } ?? [],
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        FileHandle.standardError.write(Data("kaleidoscope serve: listening on http://\(host):\(port)/\n".utf8))
      },
      logger: logger)
    do {
      try await ServiceGroup(configuration: shutdownConfiguration(for: app, logger: logger)).run()
    } catch let error as IOError {
      await store.close()
      throw PlaygroundError.configuration(
        "cannot listen on \(host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))")
    } catch {
      await store.close()
      throw error
    }
    await store.close()
  }

  /// SPEC §9: SIGTERM (or SIGINT) stops accepting and lets the requests in flight finish,
  /// for at most `shutdownGrace`; then they are cancelled. The server is the group's one
  /// service; the database client is one of its own, stopped after it.
  static func shutdownConfiguration(
    for app: some Service, logger: Logger
  ) -> ServiceGroupConfiguration {
    var configuration = ServiceGroupConfiguration(
      services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = shutdownGrace
    configuration.maximumCancellationDuration = .seconds(1)
    return configuration
  }

  /// How long requests in flight may take to finish once SIGTERM came.
  static let shutdownGrace = Duration.seconds(10)

  /// The innermost reason an error gives, without Foundation's wrapping.
  static func reason(_ error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }
}

/// Each request's context: Hummingbird's, plus the client's address (for the rate limit) and
/// the playground's body limit.
struct PlaygroundContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let client: String

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    client = source.channel.remoteAddress?.ipAddress ?? "unknown"
  }

  /// SPEC §6: a body over 64 KiB is answered 413.
  var maxUploadSize: Int { 64 << 10 }
}
