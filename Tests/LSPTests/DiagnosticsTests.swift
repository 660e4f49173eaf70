import Foundation
import KaleidoscopeFrontend
import KaleidoscopeLSP
import TestSupport
import Testing

/// Diagnostics as the user types: after every change, the server publishes exactly what
/// `check` reports for the same text (messages, ranges, notes), in the protocol's positions.
@Suite("LSP diagnostics")
struct DiagnosticsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Programs to edit: the diagnostics tests' (all with errors) and the examples.
  static let programs: [String] = ["Tests/EndToEndTests/Diagnostics", "examples", "Tests/EndToEndTests/Programs"].flatMap {
    directory in
    let path = root.appendingPathComponent(directory).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".ks") }.sorted()
      .map { "\(directory)/\($0)" }
  }

  /// What `check` says about `text`, written as the protocol writes it, computed here
  /// independently of the server: positions from Swift's own UTF-16 view.
  static func expected(_ text: String, name: String = "/work/test.ks") -> [JSON] {
    let file = SourceFile(name: name, bytes: Array(text.utf8))
    let result = LargeStack.run { Frontend.check(file) }
    let bytes = Array(text.utf8)
    func position(_ offset: Int) -> JSON {
      let before = bytes[..<offset]
      let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
      let line = before.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
      let character = String(decoding: bytes[lineStart..<offset], as: UTF8.self).utf16.count
      return ["line": .number(Double(line)), "character": .number(Double(character))]
    }
    func range(_ range: SourceRange) -> JSON { ["start": position(range.start), "end": position(range.end)] }
    return result.diagnostics.sorted.map { diagnostic in
      var json: [String: JSON] = [
        "range": range(diagnostic.range), "message": .string(diagnostic.message.text),
        "severity": diagnostic.severity == .error ? 1 : 2, "code": .string(diagnostic.message.id), "source": "kaleidoscope",
      ]
      if !diagnostic.notes.isEmpty {
        json["relatedInformation"] = .array(
          diagnostic.notes.map { note in
            [
              "message": .string(note.message.text),
              "location": ["uri": "file:///work/test.ks", "range": range(note.range ?? diagnostic.range)],
            ]
          })
      }
      return .object(json)
    }
  }

  @Test(arguments: programs)
  func sameAsCheckOnOpen(path: String) throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let session = Session.started(opening: text)
    #expect(session.diagnostics() == Self.expected(text), "\(path)")
  }

  /// Each of the three folders gives programs: a missing one would shrink the comparison
  /// above without a failure.
  @Test(arguments: [("Tests/EndToEndTests/Diagnostics", 9), ("examples", 2), ("Tests/EndToEndTests/Programs", 34)])
  func everyFolderGivesItsPrograms(folder: String, minimum: Int) {
    #expect(Self.programs.filter { $0.hasPrefix(folder + "/") }.count >= minimum)
  }

  @Test func someProgramsHaveErrors() throws {
    // The comparison above is not only of empty lists.
    let withErrors = try Self.programs.filter {
      !Self.expected(try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)).isEmpty
    }
    #expect(withErrors.count >= 8)
  }

  @Test func closingADocumentClearsItsDiagnostics() {
    let session = Session.started(opening: "fob(1)\n")
    #expect(session.diagnostics().count == 1)
    session.notify("textDocument/didClose", Session.document())
    #expect(session.diagnostics().isEmpty)
  }

  /// Random edit sequences on the repository's programs: text inserted, deleted and
  /// replaced at random places (multi-byte characters included), one or two changes per
  /// message. After each, the published diagnostics equal `check`'s on the same text, and
  /// every request at a random place gets an answer, not a crash.
  @Test(arguments: 1...24 as ClosedRange<UInt64>)
  func randomEdits(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let path = Self.programs[Int(random.next() % UInt64(Self.programs.count))]
    var text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let session = Session.started(opening: text)
    for version in 2...40 {
      var changes: [JSON] = []
      for _ in 0...(random.next() % 2) {
        let (range, replacement) = Self.randomEdit(of: text, &random)
        changes.append(["range": Self.protocolRange(range, in: text), "text": .string(replacement)])
        text.replaceSubrange(range, with: replacement)
      }
      session.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": "file:///work/test.ks", "version": .number(Double(version))], "contentChanges": .array(changes),
        ])
      #expect(session.diagnostics() == Self.expected(text), "\(path), seed \(seed), version \(version)")
      Self.askSomething(session, in: text, &random)
    }
  }

  static let snippets = [
    "(", ")", "def ", "x", " + ", "1", "\n", "# note é\n", "é", "😀", ",", "[", "]", "\"s\"", "var ", " in ", "if ", " then ",
    " else ", "for i = 0, i < 3 in ", "extern sin(x)\n", "binary| 5 ", ";", "len(", "a[2]", "=",
  ]

  static func randomEdit(of text: String, _ random: inout SplitMix64) -> (Swift.Range<String.Index>, String) {
    let count = text.count
    let start = text.index(text.startIndex, offsetBy: Int(random.next() % UInt64(count + 1)))
    let length = random.next() % 3 == 0 ? Int(random.next() % 8) : 0
    let end = text.index(start, offsetBy: min(length, text.distance(from: start, to: text.endIndex)))
    let replacement = random.next() % 4 == 0 ? "" : snippets[Int(random.next() % UInt64(snippets.count))]
    return (start..<end, replacement)
  }

  static func protocolPosition(_ index: String.Index, in text: String) -> JSON {
    let before = text[..<index]
    let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    let line = before.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
    return ["line": .number(Double(line)), "character": .number(Double(text[lineStart..<index].utf16.count))]
  }

  static func protocolRange(_ range: Swift.Range<String.Index>, in text: String) -> JSON {
    ["start": protocolPosition(range.lowerBound, in: text), "end": protocolPosition(range.upperBound, in: text)]
  }

  /// A random request at a random place (sometimes past the end of a line or the file):
  /// answered with a result or a request-failed error, never anything else.
  static func askSomething(_ session: Session, in text: String, _ random: inout SplitMix64) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = Int(random.next() % UInt64(lines.count + 1))
    let character = Int(random.next() % 40)
    let at = Session.at(line, character)
    let methods: [(String, JSON)] = [
      ("textDocument/hover", at), ("textDocument/definition", at), ("textDocument/references", at),
      ("textDocument/completion", at), ("textDocument/signatureHelp", at), ("textDocument/prepareRename", at),
      ("textDocument/documentSymbol", Session.document()), ("textDocument/semanticTokens/full", Session.document()),
      ("textDocument/foldingRange", Session.document()), ("textDocument/formatting", Session.document()),
      (
        "textDocument/codeAction",
        ["textDocument": ["uri": "file:///work/test.ks"], "range": ["start": at["position"]!, "end": at["position"]!]]
      ),
      ("workspace/symbol", ["query": "f"]),
    ]
    let (method, params) = methods[Int(random.next() % UInt64(methods.count))]
    let response = session.request(method, params)
    if let error = response["error"] {
      #expect(error["code"]?.int == ErrorCode.requestFailed, "\(method): \(error)")
    } else {
      #expect(response["result"] != nil, "\(method) has no result")
    }
  }
}
