import KaleidoscopeLSP
import TestSupport
import Testing

/// Completion, signature help, quick fixes, formatting, semantic tokens and incremental
/// changes.
@Suite("LSP editing")
struct EditingTests {
  @Test func completionOffersWhatIsVisibleHere() {
    let source = MarkedSource(
      """
      var total = 0, values[2]
      def binary| 5 (a b) a
      extern sin(x)
      def f(x y) var z = 1 in 1️⃣x + 2️⃣y
      def g(n) 3️⃣n
      """)
    let session = Session.started(opening: source.text)
    func labels(_ marker: String) -> [String: String] {
      let (line, character) = source.position(marker)
      let items = session.result("textDocument/completion", Session.at(line, character))["items"]?.elements ?? []
      return Dictionary(items.map { ($0["label"]?.string ?? "", $0["detail"]?.string ?? "") }, uniquingKeysWith: { a, _ in a })
    }
    let inF = labels("2️⃣")
    for (label, detail) in [
      ("def", "keyword"), ("len", "len(array): the number of elements"), ("f", "def f(x y)"), ("sin", "extern sin(x)"),
      ("|", "def binary| 5 (a b)"), ("total", "global number"), ("values", "global array"), ("x", "parameter"),
      ("y", "parameter"), ("z", "variable"),
    ] {
      #expect(inF[label] == detail, "\(label): \(inF[label] ?? "missing")")
    }
    #expect(labels("3️⃣")["x"] == nil, "f's parameters are not visible in g")
    #expect(labels("1️⃣")["z"] == "variable")
  }

  @Test func completionInsideADefinitionBeingTypedOffersItsParameters() {
    let source = MarkedSource("def f(alpha beta) alpha + (1️⃣\n")
    let session = Session.started(opening: source.text)
    let (line, character) = source.position("1️⃣")
    let items = session.result("textDocument/completion", Session.at(line, character))["items"]?.elements ?? []
    #expect(items.contains { $0["label"] == "beta" && $0["detail"] == "parameter" })
  }

  @Test(
    arguments: [
      ("def f(a b c) a\nf(1, 1️⃣", "f(a, b, c)", 1),
      ("def f(a b c) a\nf(g(1️⃣", nil, 0),
      ("def f(a b c) a\nf([1, 2], (3, 1️⃣4)", "f(a, b, c)", 1),
      ("def f(a b c) a\nf(1, 2, 3) + 1️⃣", nil, 0),
      ("def f(a[] b) b\nf(1️⃣", "f(a[], b)", 0),
    ] as [(String, String?, Int)])
  func signatureHelp(marked: String, label: String?, active: Int) {
    let source = MarkedSource(marked)
    let session = Session.started(opening: source.text)
    let (line, character) = source.position("1️⃣")
    let help = session.result("textDocument/signatureHelp", Session.at(line, character))
    #expect(help["signatures"]?.elements.first?["label"]?.string == label, "\(marked): \(help)")
    if label != nil { #expect(help["activeParameter"]?.int == active) }
  }

  @Test func quickFixesComeFromTheNotes() {
    let session = Session.started(opening: "def fib(n) n\nfob(1) + sin(2)\n")
    let actions = session.result(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": "file:///work/test.ks"],
        "range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 15]],
      ]
    ).elements
    #expect(actions.map { $0["title"]?.string ?? "" } == ["Change 'fob' to 'fib'", "Declare 'extern sin(x)'"])
    let edits = actions.map { $0["edit"]?["changes"]?["file:///work/test.ks"]?.elements.first }
    #expect(edits[0]?["newText"] == "fib")
    #expect(edits[1]?["newText"] == "extern sin(x)\n")
    #expect(actions.allSatisfy { $0["kind"] == "quickfix" && $0["diagnostics"]?.elements.count == 1 })
  }

  /// Formatting edits, applied, give `fmt`'s text; range formatting touches only the lines
  /// asked for; a document with syntax errors is refused.
  @Test func formatting() {
    let text = "def f(x y)x*2+y\n\ndef g(a)  a\nf( 1,2 )\n"
    let session = Session.started(opening: text)
    let edits = session.result("textDocument/formatting", Session.document()).elements
    #expect(Self.apply(edits, to: text) == "def f(x, y) x * 2 + y\n\ndef g(a) a\nf(1, 2)\n")
    let ranged = session.result(
      "textDocument/rangeFormatting",
      [
        "textDocument": ["uri": "file:///work/test.ks"],
        "range": ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 3]],
      ]
    ).elements
    #expect(Self.apply(ranged, to: text) == "def f(x y)x*2+y\n\ndef g(a) a\nf( 1,2 )\n")
    session.open("def f(x) (\n", uri: "file:///work/broken.ks")
    let refused = session.request("textDocument/formatting", Session.document("file:///work/broken.ks"))
    #expect(refused["error"]?["code"]?.int == ErrorCode.requestFailed)
  }

  /// Applies line-based edits (ranges at line starts, as the server makes them).
  static func apply(_ edits: [JSON], to text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) + "\n" }
    if lines.last == "\n" { lines.removeLast() }
    for edit in edits.reversed() {
      let start = edit["range"]?["start"]?["line"]?.int ?? 0
      let end = edit["range"]?["end"]?["line"]?.int ?? 0
      let replacement = (edit["newText"]?.string ?? "").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        .map { String($0) + "\n" }
      lines.replaceSubrange(start..<min(end, lines.count), with: replacement)
    }
    return lines.joined()
  }

  /// Semantic tokens tell parameters, locals, globals, arrays and operators apart.
  @Test func semanticTokens() {
    let source = "var g = 1, a[2]\ndef binary| 5 (p q) p\ndef f(x) var y = x in y | g + a[0]\n"
    let session = Session.started(opening: source)
    let data = session.result("textDocument/semanticTokens/full", Session.document())["data"]?.elements.compactMap(\.int) ?? []
    let types = ["function", "parameter", "variable", "operator", "keyword", "number", "string", "comment"]
    let modifiers = ["declaration", "global", "array", "userDefined", "defaultLibrary"]
    var line = 0
    var character = 0
    var tokens: [String] = []
    let lines = source.split(separator: "\n").map(String.init)
    for index in stride(from: 0, to: data.count, by: 5) {
      line += data[index]
      character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
      let text = String(Array(lines[line])[character..<character + data[index + 2]])
      let mods = modifiers.enumerated().filter { data[index + 4] & (1 << $0.offset) != 0 }.map(\.element)
      tokens.append(([text, types[data[index + 3]]] + mods).joined(separator: " "))
    }
    for expected in [
      "g variable declaration global", "a variable declaration global array", "| operator declaration userDefined",
      "p parameter declaration", "f function declaration userDefined", "y variable declaration", "y variable",
      "| operator userDefined", "g variable global", "+ operator", "a variable global array", "x parameter",
    ] {
      #expect(tokens.contains(expected), "\(expected) in \(tokens)")
    }
  }

  /// Incremental changes with positions in UTF-16 units, after characters of two and four
  /// UTF-8 bytes (one and two UTF-16 units).
  @Test func incrementalChangesCountUTF16() {
    let session = Session.started(opening: "# é😀\nfob(1)\n")
    #expect(session.diagnostics().count == 1)
    // Replace "fob" with "sin"... on line 1, then insert before the emoji on line 0.
    session.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": "file:///work/test.ks", "version": 2],
        "contentChanges": [
          ["range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 3]], "text": "def f(x) x\nf"],
          ["range": ["start": ["line": 0, "character": 3], "end": ["line": 0, "character": 5]], "text": "?"],
        ],
      ])
    #expect(session.diagnostics().isEmpty)
    let hover = session.result("textDocument/hover", Session.at(2, 0))
    #expect(hover["contents"]?["value"]?.string?.contains("def f(x)") == true)
    let symbols = session.result("textDocument/documentSymbol", Session.document()).elements
    #expect(symbols.first?["range"]?["start"]?["line"] == 1)
  }
}
