import KaleidoscopeLSP
import Testing

/// A language server in the test's process, driven message by message as `MessageLoop`
/// drives it, with everything it sends kept.
final class Session: MessageSink {
  private(set) var sent: [JSON] = []
  private(set) lazy var server = LanguageServer(sink: self)
  private var nextID = 1

  /// Keeps the message as the client reads it: its text, parsed.
  func send(_ message: OutgoingMessage) {
    let parsed = JSON.parse(message.encoded())
    #expect(parsed != nil, "the server sent text that is not JSON")
    sent.append(parsed ?? .null)
  }

  /// A session past `initialize`, with `text` open as `uri` if given.
  static func started(opening text: String? = nil, uri: String = "file:///work/test.ks") -> Session {
    let session = Session()
    _ = session.request("initialize", ["capabilities": [:]])
    session.notify("initialized", [:])
    if let text { session.open(text, uri: uri) }
    return session
  }

  /// Sends a request and returns the whole response.
  @discardableResult
  func request(_ method: String, _ params: JSON, cancelled: Bool = false) -> JSON {
    let id = JSON.number(Double(nextID))
    nextID += 1
    let before = sent.count
    server.handle(["jsonrpc": "2.0", "id": id, "method": .string(method), "params": params], cancelled: cancelled)
    server.publishDiagnostics()
    let responses = sent[before...].filter { $0["id"] == id }
    #expect(responses.count == 1, "\(method) got \(responses.count) responses")
    return responses.first ?? .null
  }

  /// Sends a request and returns its result (recording an issue if it failed).
  func result(_ method: String, _ params: JSON, sourceLocation: SourceLocation = #_sourceLocation) -> JSON {
    let response = request(method, params)
    #expect(response["error"] == nil, "\(method) failed: \(response)", sourceLocation: sourceLocation)
    return response["result"] ?? .null
  }

  func notify(_ method: String, _ params: JSON) {
    server.handle(["jsonrpc": "2.0", "method": .string(method), "params": params])
    server.publishDiagnostics()
  }

  func open(_ text: String, uri: String = "file:///work/test.ks", version: Int = 1) {
    notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": "kaleidoscope", "version": .number(Double(version)), "text": .string(text),
        ]
      ])
  }

  /// The diagnostics last published for `uri`.
  func diagnostics(_ uri: String = "file:///work/test.ks") -> [JSON] {
    let published = sent.last { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri) }
    guard case .array(let diagnostics)? = published?["params"]?["diagnostics"] else { return [] }
    return diagnostics
  }

  /// Parameters naming a document and a position.
  static func at(_ line: Int, _ character: Int, uri: String = "file:///work/test.ks") -> JSON {
    [
      "textDocument": ["uri": .string(uri)],
      "position": ["line": .number(Double(line)), "character": .number(Double(character))],
    ]
  }

  static func document(_ uri: String = "file:///work/test.ks") -> JSON { ["textDocument": ["uri": .string(uri)]] }
}

extension JSON {
  /// The elements of an array (none for anything else).
  var elements: [JSON] {
    if case .array(let elements) = self { return elements }
    return []
  }

  var int: Int? { number.map { Int($0) } }
}
