import KaleidoscopeLSP
import Testing

/// The JSON-RPC lifecycle and what the server does with requests it cannot answer: an
/// error with the right code, or an empty answer, never a crash.
@Suite("LSP protocol")
struct ProtocolTests {
  @Test func requestsBeforeInitializeAreRefused() {
    let session = Session()
    let response = session.request("textDocument/hover", Session.at(0, 0))
    #expect(response["error"]?["code"]?.int == ErrorCode.serverNotInitialized)
  }

  @Test func initializeAnnouncesTheCapabilities() {
    let session = Session()
    let capabilities = session.result("initialize", ["capabilities": [:]])["capabilities"]
    #expect(capabilities?["textDocumentSync"]?["change"]?.int == 2)
    for provider in [
      "hoverProvider", "definitionProvider", "referencesProvider", "renameProvider", "documentSymbolProvider",
      "workspaceSymbolProvider", "foldingRangeProvider", "completionProvider", "signatureHelpProvider",
      "codeActionProvider", "documentFormattingProvider", "documentRangeFormattingProvider", "semanticTokensProvider",
    ] {
      #expect(capabilities?[provider] != nil, "\(provider)")
    }
    let legend = capabilities?["semanticTokensProvider"]?["legend"]
    #expect(legend?["tokenTypes"]?.elements.contains("parameter") == true)
    #expect(legend?["tokenModifiers"]?.elements.contains("global") == true)
  }

  @Test(arguments: [
    ("no/such/method", JSON.object([:]), ErrorCode.methodNotFound),
    ("textDocument/hover", ["textDocument": "not an object"] as JSON, ErrorCode.invalidParams),
    ("textDocument/hover", JSON.null, ErrorCode.invalidParams),
    ("textDocument/rename", Session.at(0, 0), ErrorCode.invalidParams),  // no newName
    ("initialize", ["capabilities": [:]] as JSON, ErrorCode.invalidRequest),  // twice
  ])
  func badRequestsGetErrors(method: String, params: JSON, code: Int) {
    let session = Session.started()
    #expect(session.request(method, params)["error"]?["code"]?.int == code)
  }

  /// Requests about documents never opened, or positions past the end, get empty answers.
  @Test(arguments: [
    "textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
    "textDocument/signatureHelp", "textDocument/prepareRename",
  ])
  func unknownDocumentsAndFarPositionsGetEmptyAnswers(method: String) {
    let session = Session.started(opening: "def f(x) x\n")
    let unknown = session.request(method, Session.at(0, 4, uri: "file:///nowhere.ks"))
    #expect(unknown["error"] == nil)
    #expect(unknown["result"] == .null || unknown["result"] == [])
    for (line, character) in [(0, 1000), (1000, 0), (-1, -5)] {
      let far = session.request(method, Session.at(line, character))
      #expect(far["error"] == nil, "\(method) at \(line):\(character): \(far)")
    }
  }

  @Test func aCancelledRequestIsAnsweredAsCancelled() {
    let session = Session.started(opening: "def f(x) x\n")
    let response = session.request("textDocument/hover", Session.at(0, 4), cancelled: true)
    #expect(response["error"]?["code"]?.int == ErrorCode.requestCancelled)
  }

  @Test func malformedMessagesAreAnsweredAndTheServerGoesOn() {
    let session = Session.started(opening: "def f(x) x\n")
    session.server.handleMalformed()
    #expect(session.sent.last?["error"]?["code"]?.int == ErrorCode.parseError)
    session.server.handle(["jsonrpc": "2.0", "id": 7])  // no method
    #expect(session.sent.last?["error"]?["code"]?.int == ErrorCode.invalidRequest)
    session.server.handle("just a string")
    session.server.handle(["jsonrpc": "2.0", "method": "textDocument/didChange", "params": ["junk": 1]])
    session.server.handle(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": .null])
    #expect(session.result("textDocument/hover", Session.at(0, 9))["contents"] != nil)
  }

  @Test func shutdownThenExitIsAClean() {
    let session = Session.started()
    #expect(session.request("shutdown", .null)["result"] == .null)
    #expect(session.request("textDocument/hover", Session.at(0, 0))["error"]?["code"]?.int == ErrorCode.invalidRequest)
    session.notify("exit", .null)
    #expect(session.server.exitCode == 0)
  }

  @Test func exitWithoutShutdownIsAFailure() {
    let session = Session.started()
    session.notify("exit", .null)
    #expect(session.server.exitCode == 1)
  }

  @Test(arguments: [
    ("{\"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\ud83d\\ude00\\n\"]}", true),
    ("  [ ]  ", true),
    ("{\"a\" 1}", false),
    ("[1,]", true),  // Foundation's decoder, which the server uses, allows a trailing comma
    ("[1,,]", false),
    ("[,1]", false),
    ("\"\\ud83d\"", false),  // half a surrogate pair
    ("\"\u{01}\"", false),  // an unescaped control character
    ("\"\\x\"", false),
    ("1 2", false),
    ("", false),
    (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), false),  // too deep
    (String(repeating: "[", count: 400) + String(repeating: "]", count: 400), true),
  ])
  func jsonParser(text: String, isJSON: Bool) {
    #expect((JSON.parse(Array(text.utf8)) != nil) == isJSON, "\(text.prefix(40))")
  }

  @Test func jsonEscapesDecode() {
    #expect(JSON.parse(Array("\"\\u00e9\\ud83d\\ude00\\t\"".utf8)) == .string("é😀\t"))
  }

  @Test func jsonRoundTrips() throws {
    let value: JSON = ["a": [1, .number(2.5), "x\n\"é😀", true, .null], "b": [:], "c": -3]
    #expect(JSON.parse(value.serialized()) == value)
    #expect(String(decoding: JSON.number(42).serialized(), as: UTF8.self) == "42")
    #expect(JSON.parse(Array("{\"a\":".utf8)) == nil)
  }
}
