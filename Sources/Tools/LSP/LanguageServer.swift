import KaleidoscopeFrontend

/// Where the server's messages go: standard output in the tool, a list in tests.
public protocol MessageSink: AnyObject {
  func send(_ message: OutgoingMessage)
}

/// The JSON-RPC error codes the server answers with.
public enum ErrorCode {
  public static let parseError = -32700
  public static let invalidRequest = -32600
  public static let methodNotFound = -32601
  public static let invalidParams = -32602
  public static let internalError = -32603
  public static let serverNotInitialized = -32002
  public static let requestFailed = -32803
  public static let requestCancelled = -32800
}

/// A request that cannot be answered: the error the client is sent.
struct ResponseError: Error {
  var code: Int
  var message: String
}

/// `kaleidoscope lsp`: the language server, over the compiler's own front end.
///
/// It is driven one message at a time (`handle`) by `MessageLoop`, which reads them from
/// standard input; every answer and notification goes to the sink. Documents are checked
/// when they change, exactly as `check` checks a file, and the diagnostics are published
/// when the queued messages have been handled (`publishDiagnostics`), so a burst of edits
/// is checked once.
public final class LanguageServer {
  private let sink: MessageSink
  /// Where the server is in the protocol's lifetime: before `initialize`, serving, after
  /// `shutdown`.
  private enum State { case starting, running, shuttingDown }
  private var state = State.starting
  /// Set by `exit`: 0 after `shutdown`, 1 without.
  public private(set) var exitCode: Int32?
  var documents: [String: Document] = [:]
  /// The analysis of each open document's current text, made when first needed.
  private var analyses: [String: Analysis] = [:]
  /// Documents changed since their diagnostics were last published.
  private var unpublished: Set<String> = []

  public init(sink: MessageSink) {
    self.sink = sink
  }

  // MARK: - Messages

  /// Handles one message: a request (answered), a notification, or something malformed
  /// (answered with an error when it has an id). Nothing a client sends stops the server
  /// but `exit`.
  public func handle(_ message: IncomingMessage, cancelled: Bool = false) {
    guard let method = message.method else {
      if let id = message.id, !message.isResponse {
        reply(to: id, error: ResponseError(code: ErrorCode.invalidRequest, message: "a request needs a method"))
      }
      return  // a response to a request of ours (the server sends none), or junk
    }
    guard let id = message.id else {
      notification(method, message)
      return
    }
    if cancelled {
      reply(to: id, error: ResponseError(code: ErrorCode.requestCancelled, message: "cancelled"))
      return
    }
    do {
      reply(to: id, result: try request(method, message))
    } catch let error as ResponseError {
      reply(to: id, error: error)
    } catch {
      reply(to: id, error: ResponseError(code: ErrorCode.invalidParams, message: "invalid parameters for \(method): \(error)"))
    }
  }

  /// Handles a message given as a value (the tests').
  public func handle(_ message: JSON, cancelled: Bool = false) {
    handle(IncomingMessage(message), cancelled: cancelled)
  }

  /// Answers a message that was not JSON.
  public func handleMalformed() {
    sink.send(.error(id: .null, code: ErrorCode.parseError, message: "not JSON"))
  }

  private func reply(to id: JSON, result: any Encodable) {
    sink.send(.result(id: id, result))
  }

  private func reply(to id: JSON, error: ResponseError) {
    sink.send(.error(id: id, code: error.code, message: error.message))
  }

  private func request(_ method: String, _ params: IncomingMessage) throws -> any Encodable {
    switch (state, method) {
    case (.starting, "initialize"):
      state = .running
      return Self.initializeResult
    case (.starting, _):
      throw ResponseError(code: ErrorCode.serverNotInitialized, message: "the server is not initialized")
    case (.shuttingDown, _):
      throw ResponseError(code: ErrorCode.invalidRequest, message: "the server is shutting down")
    case (.running, "shutdown"):
      state = .shuttingDown
      return JSON.null
    case (.running, "initialize"):
      throw ResponseError(code: ErrorCode.invalidRequest, message: "the server is already initialized")
    case (.running, _):
      guard let handler = handler(for: method) else {
        throw ResponseError(code: ErrorCode.methodNotFound, message: "unknown method \(method)")
      }
      return try handler(params)
    }
  }

  /// The handler of each request the server answers once initialized.
  private func handler(for method: String) -> ((IncomingMessage) throws -> any Encodable)? {
    switch method {
    case "textDocument/hover": hover
    case "textDocument/definition": definition
    case "textDocument/references": references
    case "textDocument/prepareRename": prepareRename
    case "textDocument/rename": rename
    case "textDocument/documentSymbol": documentSymbols
    case "workspace/symbol": workspaceSymbols
    case "textDocument/foldingRange": foldingRanges
    case "textDocument/completion": completion
    case "textDocument/signatureHelp": signatureHelp
    case "textDocument/codeAction": codeActions
    case "textDocument/semanticTokens/full": semanticTokens
    case "textDocument/formatting": formatting
    case "textDocument/rangeFormatting": rangeFormatting
    default: nil
    }
  }

  private func notification(_ method: String, _ params: IncomingMessage) {
    switch method {
    case "exit":
      exitCode = state == .shuttingDown ? 0 : 1
    case "textDocument/didOpen":
      guard state == .running, let open = try? params.params(as: DidOpenParams.self) else { return }
      let item = open.textDocument
      documents[item.uri] = Document(uri: item.uri, version: item.version, text: item.text)
      changed(item.uri)
    case "textDocument/didChange":
      guard state == .running, let change = try? params.params(as: DidChangeParams.self),
        var document = documents[change.textDocument.uri]
      else { return }
      document.apply(change.contentChanges, version: change.textDocument.version ?? document.version + 1)
      documents[document.uri] = document
      changed(document.uri)
    case "textDocument/didClose":
      guard let close = try? params.params(as: DidCloseParams.self), documents[close.textDocument.uri] != nil else { return }
      let uri = close.textDocument.uri
      documents[uri] = nil
      analyses[uri] = nil
      unpublished.remove(uri)
      publish(PublishDiagnosticsParams(uri: uri, version: nil, diagnostics: []))
    default:
      break  // initialized, $/cancelRequest (handled by the loop), $/setTrace, unknown ones
    }
  }

  private func changed(_ uri: String) {
    analyses[uri] = nil
    unpublished.insert(uri)
  }

  // MARK: - Documents and diagnostics

  /// The analysis of an open document's current text; `nil` for a document never opened.
  func analysis(_ uri: String) -> Analysis? {
    if let analysis = analyses[uri] { return analysis }
    guard let document = documents[uri] else { return nil }
    let analysis = Analysis(document)
    analyses[uri] = analysis
    return analysis
  }

  /// Publishes the diagnostics of every document changed since they were last published.
  public func publishDiagnostics() {
    for uri in unpublished.sorted() {
      guard let analysis = analysis(uri) else { continue }
      publish(PublishDiagnosticsParams(uri: uri, version: analysis.document.version, diagnostics: analysis.diagnostics))
    }
    unpublished.removeAll()
  }

  /// Builds the symbol index of every analysed document that lacks one: done while the
  /// server waits for the next message, so that navigation after a change is quick.
  public func prepareIndexes() {
    for analysis in analyses.values { _ = analysis.index }
  }

  private func publish(_ params: PublishDiagnosticsParams) {
    sink.send(.notification(method: "textDocument/publishDiagnostics", params: params))
  }

  /// Decodes a request's parameters (a malformed one is an invalid-parameters error).
  func decode<Params: Decodable>(_ message: IncomingMessage, as type: Params.Type) throws -> Params {
    do {
      return try message.params(as: type)
    } catch {
      throw ResponseError(code: ErrorCode.invalidParams, message: "invalid parameters: \(error)")
    }
  }
}
