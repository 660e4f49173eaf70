import KaleidoscopeLSP
import TestSupport
import Testing

/// Hover, go to definition, references, rename and the outline, on marked sources: a
/// marker `1️⃣` stands for the position a request is made at.
@Suite("LSP navigation")
struct NavigationTests {
  static let program = MarkedSource(
    """
    # The classic.
    # Recursively.
    def 1️⃣fib(n)
      if 2️⃣n < 3 then 1 else fib(n - 1) + 3️⃣fib(n - 2)
    def binary| 5 (a b) if a then 1 else b
    var 4️⃣total = 0, values[3]
    def sum(a[]) var s = 0 in (9️⃣for 5️⃣i = 0, i < len(a) in s = s + a[i]) + s
    extern sin(x)
    total = fib(10) 6️⃣| 0 + sum(values) + 7️⃣sin(1) + 1 8️⃣+ 2

    """)

  static func position(_ marker: String) -> JSON {
    let (line, character) = program.position(marker)
    return Session.at(line, character)
  }

  static func range(_ json: JSON?) -> String {
    guard let start = json?["start"], let end = json?["end"] else { return "none" }
    return "\(start["line"]!.int!):\(start["character"]!.int!)-\(end["line"]!.int!):\(end["character"]!.int!)"
  }

  @Test(arguments: [
    ("3️⃣", ["def fib(n)", "The classic.\nRecursively.", "Defined on line 3."]),
    ("2️⃣", ["n\n```", "Parameter of `fib`"]),
    ("4️⃣", ["var total", "Global number, declared on line 6."]),
    ("5️⃣", ["Loop variable in `sum`"]),
    ("6️⃣", ["def binary| 5 (a b)", "Binary operator: precedence 5, left-associative."]),
    ("7️⃣", ["extern sin(x)", "Provided by the host"]),
    (
      "8️⃣",
      [
        "Built-in binary operator `+`: precedence 20, left-associative.", "`a + b` adds two doubles.",
        "[chapter 2, Implementing a parser and AST](https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl02.html)",
      ]
    ),
    // A keyword: what it does and the tutorial chapter that introduces it, as the page says.
    (
      "9️⃣",
      [
        "`for i = start, i < end, step in body`",
        "[chapter 5, Extending the language: control flow](https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl05.html)",
      ]
    ),
  ])
  func hover(marker: String, expected: [String]) {
    let session = Session.started(opening: Self.program.text)
    let value = session.result("textDocument/hover", Self.position(marker))["contents"]?["value"]?.string ?? ""
    for text in expected { #expect(value.contains(text), "\(marker): \(value)") }
  }

  @Test func definitionOfACallIsThePrototypeName() {
    let session = Session.started(opening: Self.program.text)
    let location = session.result("textDocument/definition", Self.position("3️⃣"))
    let (line, character) = Self.program.position("1️⃣")
    #expect(Self.range(location["range"]) == "\(line):\(character)-\(line):\(character + 3)")
    #expect(location["uri"] == "file:///work/test.ks")
  }

  @Test func referencesOfAFunction() {
    let session = Session.started(opening: Self.program.text)
    var params = Self.position("1️⃣")
    if case .object(var members) = params {
      members["context"] = ["includeDeclaration": false]
      params = .object(members)
    }
    let references = session.result("textDocument/references", params).elements.map { Self.range($0["range"]) }
    #expect(references == ["3:23-3:26", "3:36-3:39", "8:8-8:11"])
    let all = session.result("textDocument/references", Self.position("1️⃣")).elements
    #expect(all.count == 4)
  }

  @Test func renameALocalEditsEveryUseInItsBodyOnly() {
    let session = Session.started(opening: Self.program.text)
    var params = Self.position("2️⃣")
    if case .object(var members) = params {
      members["newName"] = "count"
      params = .object(members)
    }
    let edits = session.result("textDocument/rename", params)["changes"]?["file:///work/test.ks"]?.elements ?? []
    #expect(edits.map { Self.range($0["range"]) } == ["2:8-2:9", "3:5-3:6", "3:27-3:28", "3:40-3:41"])
    #expect(edits.allSatisfy { $0["newText"] == "count" })
  }

  @Test(arguments: [
    ("2️⃣", "x y", "not a valid name"),
    ("2️⃣", "then", "keyword"),
    ("2️⃣", "len", "keyword"),
    ("2️⃣", "fib", "a function named 'fib' already exists"),
    ("4️⃣", "sum", "a function named 'sum' already exists"),
    ("1️⃣", "s", "a variable named 's' already exists"),
    ("5️⃣", "s", "already a name in this function"),
    ("6️⃣", "or", "an operator cannot be renamed"),
    ("7️⃣", "sine", "provided by the host"),
  ])
  func renameIsRefused(marker: String, newName: String, reason: String) {
    let session = Session.started(opening: Self.program.text)
    var params = Self.position(marker)
    if case .object(var members) = params {
      members["newName"] = .string(newName)
      params = .object(members)
    }
    let response = session.request("textDocument/rename", params)
    #expect(response["error"]?["code"]?.int == ErrorCode.requestFailed)
    #expect(response["error"]?["message"]?.string?.contains(reason) == true, "\(response)")
  }

  @Test func prepareRenameGivesTheNameAndItsRange() {
    let session = Session.started(opening: Self.program.text)
    let result = session.result("textDocument/prepareRename", Self.position("3️⃣"))
    #expect(result["placeholder"] == "fib")
    #expect(Self.range(result["range"]) == "3:36-3:39")
  }

  @Test func documentSymbolsAreTheOutline() {
    let session = Session.started(opening: Self.program.text)
    let symbols = session.result("textDocument/documentSymbol", Session.document()).elements
    #expect(symbols.map { $0["name"]?.string ?? "" } == ["fib", "binary|", "total", "values", "sum", "sin"])
    #expect(symbols.map { $0["kind"]?.int ?? 0 } == [12, 25, 13, 18, 12, 12])
    #expect(symbols[4]["children"]?.elements.map { $0["name"]?.string ?? "" } == ["a", "s", "i"])
  }

  @Test func workspaceSymbolsSpanOpenDocuments() {
    let session = Session.started(opening: Self.program.text)
    session.open("def fibonacci(n) n\n", uri: "file:///work/other.ks")
    let found = session.result("workspace/symbol", ["query": "fb"]).elements
    #expect(found.map { $0["name"]?.string ?? "" }.sorted() == ["fib", "fibonacci"])
  }

  @Test func foldingRangesCoverDefinitionsAndCommentBlocks() {
    let session = Session.started(opening: Self.program.text)
    let ranges = session.result("textDocument/foldingRange", Session.document()).elements
    #expect(ranges.map { "\($0["startLine"]!.int!)-\($0["endLine"]!.int!)" } == ["0-1", "2-3"])
  }
}
