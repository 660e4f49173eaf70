import KaleidoscopeFormat
import KaleidoscopeFrontend

/// Quick fixes and formatting: the edits the server proposes.
extension LanguageServer {
  /// Quick fixes for the diagnostics in the range: "did you mean 'fib'?" replaces the name;
  /// a library function used without its `extern` gets the declaration at the top.
  func codeActions(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: CodeActionParams.self)
    guard let analysis = analysis(request.textDocument.uri) else { return JSON.array([]) }
    let document = analysis.document
    let wanted = document.sourceRange(of: request.range)
    var actions: [CodeAction] = []
    for (diagnostic, published) in zip(analysis.result.diagnostics.sorted, analysis.diagnostics) {
      guard diagnostic.range.start <= wanted.end, wanted.start <= diagnostic.range.end else { continue }
      for note in diagnostic.notes {
        let edit: TextEdit
        let title: String
        switch note.message {
        case .didYouMean(let name):
          title = "Change '\(analysis.file.text(in: diagnostic.range))' to '\(name)'"
          edit = TextEdit(range: document.range(of: diagnostic.range), newText: name)
        case .declareLibraryFunction(_, let signature):
          title = "Declare 'extern \(signature)'"
          let start = Position(line: 0, character: 0)
          edit = TextEdit(range: TextRange(start: start, end: start), newText: "extern \(signature)\n")
        default:
          continue
        }
        actions.append(
          CodeAction(
            title: title, kind: "quickfix", diagnostics: [published], isPreferred: true,
            edit: WorkspaceEdit(changes: [document.uri: [edit]])))
      }
    }
    return actions
  }

  func formatting(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: DocumentParams.self)
    guard let document = documents[request.textDocument.uri] else { return JSON.null }
    return try formattingEdits(document, lines: nil)
  }

  /// Formats the whole document and keeps the changes that touch the range's lines.
  func rangeFormatting(_ params: IncomingMessage) throws -> any Encodable {
    let request = try decode(params, as: RangeParams.self)
    guard let document = documents[request.textDocument.uri] else { return JSON.null }
    return try formattingEdits(document, lines: request.range.start.line...request.range.end.line)
  }

  /// The edits that bring the document to the canonical layout, line by line (so the
  /// editor keeps the cursor and marks on the lines that do not change); only those that
  /// touch `lines`, if given. A document with syntax errors is not formatted.
  private func formattingEdits(_ document: Document, lines: ClosedRange<Int>?) throws -> [TextEdit] {
    let file = SourceFile(name: document.name, bytes: document.bytes)
    guard case .formatted(let formatted) = Formatter.format(file) else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "the document has syntax errors; fix them to format it")
    }
    let oldStarts = Self.lineStarts(document.bytes)
    let newStarts = Self.lineStarts(formatted)
    var edits: [TextEdit] = []
    for change in Self.lineByLine(UnifiedDiff.changes(old: document.bytes, new: formatted)) {
      if let lines, !Self.touches(change.old, lines) { continue }
      let range = SourceRange(start: oldStarts[change.old.lowerBound], end: oldStarts[change.old.upperBound])
      let text = formatted[newStarts[change.new.lowerBound]..<newStarts[change.new.upperBound]]
      edits.append(TextEdit(range: document.range(of: range), newText: String(decoding: text, as: UTF8.self)))
    }
    return edits
  }

  /// The changes, with a run that changes as many lines as it keeps split into one change
  /// per line (so that range formatting can take the lines asked for alone).
  private static func lineByLine(_ changes: [UnifiedDiff.LineChange]) -> [UnifiedDiff.LineChange] {
    changes.flatMap { change in
      guard change.old.count == change.new.count, change.old.count > 1 else { return [change] }
      return (0..<change.old.count).map { line in
        UnifiedDiff.LineChange(
          old: change.old.lowerBound + line..<change.old.lowerBound + line + 1,
          new: change.new.lowerBound + line..<change.new.lowerBound + line + 1)
      }
    }
  }

  /// Whether changed lines `old` (an insertion before line `old.lowerBound` when empty) touch
  /// `lines`.
  private static func touches(_ old: Swift.Range<Int>, _ lines: ClosedRange<Int>) -> Bool {
    old.isEmpty
      ? (lines.lowerBound...lines.upperBound + 1).contains(old.lowerBound)
      : old.lowerBound <= lines.upperBound && old.upperBound > lines.lowerBound
  }

  /// Where each line starts, and the end of the text last.
  private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
    if starts.last != bytes.count { starts.append(bytes.count) }
    return starts
  }
}
