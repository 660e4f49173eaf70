import Foundation
import HTTPTypes
import Hummingbird
import KaleidoscopeFrontend
import KaleidoscopeSandbox
import Logging
import NIOCore

/// The routes: the page and its files, the JSON API, `/healthz`.
struct PlaygroundAPI: Sendable {
  let configuration: Playground.Configuration
  let store: any SnippetStore
  let logger: Logger
  let admission: Admission
  let rateLimiter: RateLimiter
  let examples: [ExampleEntry]
  let results: ResultCache
  let metrics = PlaygroundMetrics()

  init(configuration: Playground.Configuration, store: any SnippetStore, logger: Logger) {
    self.configuration = configuration
    self.store = store
    self.logger = logger
    admission = Admission(workers: configuration.workers, queueLimit: configuration.queueLimit)
    rateLimiter = RateLimiter(perMinute: configuration.rateLimitPerMinute)
    examples = Examples.load(from: configuration.examples)
    results = ResultCache(toolIdentity: Self.identity(ofTool: configuration.tool), store: store)
  }

  /// What tells one build of the tool from another: its path, size and modification time.
  static func identity(ofTool path: String) -> String {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
    let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
    return "\(path)\n\(size)\n\(modified)"
  }

  /// Whether the sandboxed answers of the request being handled all came from the cache.
  @TaskLocal static var cacheOutcome: CacheOutcome?

  func register(on router: Router<PlaygroundContext>) {
    router.get("/healthz") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
    // Ready when the snippet store answers: a balancer sends requests only to ready servers.
    router.get("/readyz") { _, _ in
      guard await store.isReady() else { return failure(.serviceUnavailable, "the snippet store does not answer", retryAfter: 1) }
      return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
    }
    router.get("/") { _, _ in page("index.html") }
    router.get("/s/:id") { _, _ in page("index.html") }
    router.get("/static/:name") { _, context in page(context.parameters.get("name") ?? "") }
    router.get("/codemirror/**") { request, _ in try await CodeMirrorFiles.response(for: request.uri.path) }
    router.get("/api/examples") { _, _ in json(examples) }
    router.get("/metrics") { _, _ in
      metrics.setQueueDepth(await admission.waitingCount)
      var headers = HTTPFields()
      headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
      return Response(
        status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }
    router.get("/api/language") { _, _ in json(LanguageGuide.shared) }
    router.post("/api/run") { request, context in
      try await limited(request, context) { (body: RunRequest) in try await run(body) }
    }
    router.post("/api/view") { request, context in
      try await limited(request, context) { (body: ViewRequest) in try await view(body) }
    }
    router.post("/api/trace") { request, context in
      try await limited(request, context) { (body: TraceRequest) in try await trace(body) }
    }
    router.post("/api/share") { request, context in
      try await limited(request, context, sandboxed: false) { (body: ShareRequest) in
        guard let id = await fromStore({ try await store.save(body.source) }) else { return storeUnavailable }
        return json(ShareResponse(id: id, url: "/s/\(id)"), status: .created)
      }
    }
    router.get("/api/share/:id") { _, context in
      let id = context.parameters.get("id") ?? ""
      guard SnippetID.isWellFormed(id) else { return failure(.notFound, "no snippet '\(id)'") }
      guard let found = await fromStore({ try await store.source(of: id) }) else { return storeUnavailable }
      guard let source = found else { return failure(.notFound, "no snippet '\(id)'") }
      return json(SnippetResponse(source: source))
    }
  }

  /// The checks every API request passes: the rate limit, the body's size and form, and a
  /// free sandbox (when it needs one); then `handle`.
  private func limited<Body: Decodable & Sendable>(
    _ request: Request, _ context: PlaygroundContext, sandboxed: Bool = true,
    _ handle: @Sendable @escaping (Body) async throws -> Response
  ) async throws -> Response {
    let client = ClientAddress.resolve(
      peer: context.client, forwardedFor: request.headers[.xForwardedFor], trusted: configuration.trustedProxies)
    let (allowed, retryAfter) = rateLimiter.admit(client)
    guard allowed else {
      return failure(.tooManyRequests, "too many requests; try again in \(retryAfter) s", retryAfter: retryAfter)
    }
    let tooLarge = "the body is larger than \(context.maxUploadSize >> 10) KiB"
    if let declared = request.headers[.contentLength].flatMap(Int.init), declared > context.maxUploadSize {
      return failure(.contentTooLarge, tooLarge)
    }
    let bytes: ByteBuffer
    do {
      bytes = try await request.body.collect(upTo: context.maxUploadSize)
    } catch is NIOTooManyBytesError {
      return failure(.contentTooLarge, tooLarge)
    }
    let body: Body
    do {
      body = try JSON.decoder.decode(Body.self, from: Data(buffer: bytes))
    } catch {
      return failure(.badRequest, JSON.reason(error))
    }
    guard sandboxed else { return try await handle(body) }
    let outcome = CacheOutcome()
    var response: Response
    do {
      response = try await Self.$client.withValue(client) {
        try await Self.$cacheOutcome.withValue(outcome) { try await handle(body) }
      }
    } catch is ServerBusy {
      response = failure(.serviceUnavailable, "the server is busy; try again shortly", retryAfter: 1)
    }
    response.headers[.xCache] = outcome.isHit ? "hit" : "miss"
    return response
  }

  /// The client of the request being handled, for fair admission to the sandboxes.
  @TaskLocal static var client = "unknown"

  /// The sandbox's answer to `request`: from the cache, or run and then cached. An answer
  /// that a limit stopped is cached too: the same request meets the same limit. A cached
  /// answer needs no sandbox, so only a miss waits for a worker (`Admission`); it throws
  /// `ServerBusy` when the queue is full. Nil, once the reason is logged, when no sandbox
  /// could start (no processes or descriptors left, or the tool gone): the request fails,
  /// the server goes on.
  func sandboxed(
    _ request: Sandbox.Request, limits: Sandbox.Limits = Sandbox.Limits()
  ) async throws -> Sandbox.Result? {
    let key = results.key(for: request.cacheIdentity + Array("\n\(limits)".utf8))
    if let data = await results.lookup(key), let cached = ResultCache.result(from: data) {
      Self.cacheOutcome?.record(hit: true)
      metrics.cache(hit: true)
      return cached
    }
    Self.cacheOutcome?.record(hit: false)
    metrics.cache(hit: false)
    let started = try await admission.admitting(Self.client) { () -> Sandbox.Result? in
      do {
        let start = ContinuousClock.now
        let result = try await Sandbox.run(request, limits: limits, tool: configuration.tool)
        metrics.sandbox(
          ContinuousClock.now - start, timedOut: result.timedOut, truncated: result.truncated, exitCode: result.exitCode)
        return result
      } catch {
        logger.error("cannot start a sandbox with \(configuration.tool): \(error)")
        return nil
      }
    }
    guard let started else { throw ServerBusy() }
    if let result = started, let data = ResultCache.data(of: result) { await results.save(key, data) }
    return started
  }

  /// What the snippet store answers within `shareDeadline`; nil, once the reason is
  /// logged, when it does not (a database that is down): the server goes on without it.
  private func fromStore<T: Sendable>(_ work: @Sendable @escaping () async throws -> T) async -> T? {
    do {
      return try await StoreCall.withDeadline(Self.shareDeadline, work)
    } catch {
      let reason = (error as? StoreCall.Unavailable)?.lastError.map { "\($0)" } ?? "no answer in time"
      logger.error("the snippet store does not answer: \(reason)")
      return nil
    }
  }

  /// How long a share waits for the snippet store.
  static let shareDeadline = Duration.seconds(2)

  var storeUnavailable: Response {
    failure(.serviceUnavailable, "snippets cannot be stored or read now; try again shortly", retryAfter: 2)
  }

  var noSandbox: Response {
    failure(.serviceUnavailable, "cannot start a sandbox now; try again shortly", retryAfter: 1)
  }

  private func run(_ body: RunRequest) async throws -> Response {
    let opt = body.opt ?? 2
    guard (0...3).contains(opt) else { return failure(.badRequest, "'opt' must be 0 to 3") }
    // A sandboxed run is compiled or interpreted whole: tiers would need a compiler thread.
    guard let tier = Tier(spelling: body.engine ?? "jit"), tier != .auto else {
      return failure(.badRequest, "'engine' must be 'jit' or 'interp'")
    }
    guard let semantics = ForSemantics(rawValue: body.forSemantics ?? "current") else {
      return failure(.badRequest, "'forSemantics' must be 'current' or 'legacy'")
    }
    var request = Sandbox.Request(source: Array(body.source.utf8), name: "main.ks")
    request.stdin = Array((body.stdin ?? "").utf8)
    request.optimization = opt
    request.tier = tier
    request.forSemantics = semantics
    request.jsonDiagnostics = true
    guard let result = try await sandboxed(request) else { return noSandbox }
    let (diagnostics, stderr) = Listing.diagnostics(in: String(decoding: result.stderr, as: UTF8.self))
    return json(
      RunResponse(
        exitCode: result.exitCode, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: stderr,
        diagnostics: diagnostics, timedOut: result.timedOut, truncated: result.truncated,
        timeMs: (result.milliseconds * 10).rounded() / 10))
  }

  private func view(_ body: ViewRequest) async throws -> Response {
    guard let view = View(rawValue: body.view) else {
      let names = View.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      return failure(.badRequest, "'view' must be one of \(names)")
    }
    let opt = body.opt ?? (view == .passes ? 2 : 0)
    guard (0...3).contains(opt) else { return failure(.badRequest, "'opt' must be 0 to 3") }
    guard body.function == nil || view == .passes || view == .cfg else {
      return failure(.badRequest, "'function' applies to the 'passes' and 'cfg' views only")
    }
    guard body.asm != true || view == .cfg else { return failure(.badRequest, "'asm' applies to the 'cfg' view only") }
    guard body.filters == nil || view == .asm else { return failure(.badRequest, "'filters' applies to the 'asm' view only") }
    var target: TargetName?
    if let name = body.target {
      target = TargetName(spelling: name)
      guard target != nil else {
        let names = TargetName.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return failure(.badRequest, "'target' must be one of \(names), or a triple of one of them")
      }
    }
    let diff = body.diff ?? false
    guard !diff || view == .ir else { return failure(.badRequest, "'diff' applies to the 'ir' view only") }
    var request = Sandbox.Request(source: Array(body.source.utf8), name: "main.ks")
    request.view = view
    request.diffFromUnoptimized = diff
    request.target = target?.triple
    request.optimization = opt
    request.jsonDiagnostics = true
    request.function = body.function
    request.graphsMachineCode = body.asm ?? false
    if view == .passes || view == .cfg { return try await explanation(request) }
    guard let result = try await sandboxed(request) else { return noSandbox }
    let (diagnostics, stderr) = Listing.diagnostics(in: String(decoding: result.stderr, as: UTF8.self))
    // Output past the limit stopped the view: what came is shown, whole lines, and flagged.
    let truncated = result.truncated && !result.timedOut
    if result.timedOut || (result.exitCode > 1 && !truncated) || !stderr.isEmpty {
      let reason = result.timedOut ? "the view took too long and was stopped" : stderr.isEmpty ? "the view failed" : stderr
      return json(ViewResponse(text: reason, diagnostics: diagnostics, lines: []))
    }
    var output = result.stdout[...]
    if truncated, let end = output.lastIndex(of: UInt8(ascii: "\n")) { output = output[...end] }
    let text = String(decoding: output, as: UTF8.self)
    let listing: (text: String, lines: [Int]) =
      switch view {
      case .ir where diff: (text, [])
      case .ir: Listing.ir(text)
      case .asm: Listing.assembly(text, filters: body.filters ?? AssemblyFilters())
      case .tokens, .ast, .passes, .cfg: (text, [])
      }
    return json(ViewResponse(text: listing.text, diagnostics: diagnostics, lines: listing.lines, truncated: truncated))
  }
}

/// Every worker is busy and the queue is full: the request is answered 503.
struct ServerBusy: Error {}

/// A file of the page, or 404.
func page(_ name: String) -> Response {
  guard let asset = PageAssets.named(name) else { return failure(.notFound, "no file '\(name)'") }
  var headers = HTTPFields()
  headers[.contentType] = asset.contentType
  headers[.cacheControl] = "no-cache"
  return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
}

/// `value` as a JSON answer.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
  let data = (try? JSON.encoder.encode(value)) ?? Data("{}".utf8)
  var headers = HTTPFields()
  headers[.contentType] = "application/json; charset=utf-8"
  return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

/// An error answer: `{"error": message}`, with `Retry-After` when given.
func failure(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) -> Response {
  var response = json(ErrorResponse(error: message), status: status)
  if let retryAfter { response.headers[.retryAfter] = "\(max(1, retryAfter))" }
  // The rest of a body too large is never read: the connection cannot carry another request.
  if status == .contentTooLarge { response.headers[.connection] = "close" }
  return response
}
