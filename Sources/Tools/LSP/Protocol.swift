/// The parts of the Language Server Protocol 3.17 this server speaks, as typed values.
/// Field names are the protocol's; optional fields are left out when `nil`.

/// A place in a document: a zero-based line, and a column counted in UTF-16 code units.
public struct Position: Codable, Hashable, Sendable, Comparable {
  public var line: Int
  public var character: Int

  public init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  public static func < (lhs: Position, rhs: Position) -> Bool {
    (lhs.line, lhs.character) < (rhs.line, rhs.character)
  }
}

/// A span of a document, from `start` up to (not including) `end`.
public struct TextRange: Codable, Hashable, Sendable {
  public var start: Position
  public var end: Position

  public init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }
}

/// A span of the document at `uri`: where a definition or reference is.
public struct Location: Codable, Hashable, Sendable {
  public var uri: String
  public var range: TextRange
}

/// Names an open document by its URI.
public struct TextDocumentIdentifier: Codable, Sendable {
  public var uri: String
}

/// A document as the client opens it: its URI, language, version and whole text.
public struct TextDocumentItem: Codable, Sendable {
  public var uri: String
  public var languageId: String?
  public var version: Int
  public var text: String
}

/// Names a document and the version an edit brings it to.
public struct VersionedTextDocumentIdentifier: Codable, Sendable {
  public var uri: String
  public var version: Int?
}

/// A change: the whole text when `range` is absent, else `text` replaces `range`.
public struct TextDocumentContentChangeEvent: Codable, Sendable {
  public var range: TextRange?
  public var text: String

  public init(range: TextRange?, text: String) {
    self.range = range
    self.text = text
  }
}

/// `textDocument/didOpen`: the document the client opened.
public struct DidOpenParams: Codable, Sendable { public var textDocument: TextDocumentItem }
/// `textDocument/didClose`: the document the client closed.
public struct DidCloseParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }
/// `textDocument/didChange`: a document's new version and the edits that made it.
public struct DidChangeParams: Codable, Sendable {
  public var textDocument: VersionedTextDocumentIdentifier
  public var contentChanges: [TextDocumentContentChangeEvent]
}

/// `textDocument` and `position`: hover, definition, completion, signature help, ...
public struct TextDocumentPositionParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var position: Position
}

/// `textDocument/references`: a position, and whether the declaration counts as a reference.
public struct ReferenceParams: Codable, Sendable {
  /// Whether the declaration is listed among the references.
  public struct Context: Codable, Sendable { public var includeDeclaration: Bool }
  public var textDocument: TextDocumentIdentifier
  public var position: Position
  public var context: Context?
}

/// `textDocument/rename`: the symbol at a position and its new name.
public struct RenameParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var position: Position
  public var newName: String
}

/// A request about a whole document: symbols, formatting, folding, semantic tokens.
public struct DocumentParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }

/// A request about a span of a document.
public struct RangeParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var range: TextRange
}

/// `textDocument/codeAction`: a span and the diagnostics the client shows there.
public struct CodeActionParams: Codable, Sendable {
  /// The diagnostics the client shows in the span.
  public struct Context: Codable, Sendable { public var diagnostics: [LSPDiagnostic]? }
  public var textDocument: TextDocumentIdentifier
  public var range: TextRange
  public var context: Context?
}

/// `workspace/symbol`: the text the client's symbol search typed.
public struct WorkspaceSymbolParams: Codable, Sendable { public var query: String }

/// `$/cancelRequest`: the id of the request the client gave up on.
public struct CancelParams: Codable, Sendable { public var id: JSON }

/// A note attached to a diagnostic, at a place of its own.
public struct DiagnosticRelatedInformation: Codable, Sendable, Equatable {
  public var location: Location
  public var message: String
}

/// A diagnostic as the protocol carries it, made from one of the front end's.
public struct LSPDiagnostic: Codable, Sendable, Equatable {
  public var range: TextRange
  /// 1 error, 2 warning, 3 information, 4 hint.
  public var severity: Int?
  /// The catalogue's identifier of the message (`unknown-function`).
  public var code: String?
  public var source: String?
  public var message: String
  public var relatedInformation: [DiagnosticRelatedInformation]?
}

/// `textDocument/publishDiagnostics`: every diagnostic of one version of a document.
public struct PublishDiagnosticsParams: Codable, Sendable {
  public var uri: String
  public var version: Int?
  public var diagnostics: [LSPDiagnostic]
}

/// Replaces a span of a document with new text.
public struct TextEdit: Codable, Sendable, Equatable {
  public var range: TextRange
  public var newText: String
}

/// Edits to documents, by URI: what a rename or a code action does.
public struct WorkspaceEdit: Codable, Sendable {
  public var changes: [String: [TextEdit]]
}

/// A fix the client can offer: a title and the edit that applies it.
public struct CodeAction: Codable, Sendable {
  public var title: String
  public var kind: String
  public var diagnostics: [LSPDiagnostic]?
  public var isPreferred: Bool?
  public var edit: WorkspaceEdit
}

/// Text for the client to show, as `plaintext` or `markdown`.
public struct MarkupContent: Codable, Sendable {
  public var kind: String
  public var value: String
}

/// `textDocument/hover`'s answer: what to show, and the span it is about.
public struct Hover: Codable, Sendable {
  public var contents: MarkupContent
  public var range: TextRange?
}

/// `textDocument/prepareRename`'s answer: the span a rename would change and its text.
public struct PrepareRenameResult: Codable, Sendable {
  public var range: TextRange
  public var placeholder: String
}

/// One completion the client may offer.
public struct CompletionItem: Codable, Sendable {
  public var label: String
  /// 3 function, 6 variable, 14 keyword, 24 operator, ...
  public var kind: Int
  public var detail: String?
  public var documentation: String?
  public var sortText: String?
}

/// `textDocument/completion`'s answer.
public struct CompletionList: Codable, Sendable {
  public var isIncomplete: Bool
  public var items: [CompletionItem]
}

/// A parameter of a signature, as a span of the signature's label.
public struct ParameterInformation: Codable, Sendable {
  /// The parameter's start and end offsets (UTF-16) in the signature's label.
  public var label: [Int]
}

/// A function's signature, as signature help shows it.
public struct SignatureInformation: Codable, Sendable {
  public var label: String
  public var documentation: String?
  public var parameters: [ParameterInformation]
}

/// `textDocument/signatureHelp`'s answer: the signature of the call being typed and its active
/// parameter.
public struct SignatureHelp: Codable, Sendable {
  public var signatures: [SignatureInformation]
  public var activeSignature: Int
  public var activeParameter: Int
}

/// A symbol of a document's outline, with the symbols inside it.
public struct DocumentSymbol: Codable, Sendable {
  public var name: String
  public var detail: String?
  /// 12 function, 13 variable, 18 array, 25 operator, ...
  public var kind: Int
  public var range: TextRange
  public var selectionRange: TextRange
  public var children: [DocumentSymbol]?
}

/// A symbol found by `workspace/symbol`, with where it is.
public struct SymbolInformation: Codable, Sendable {
  public var name: String
  public var kind: Int
  public var location: Location
  public var containerName: String?
}

/// Lines the client can fold away.
public struct FoldingRange: Codable, Sendable {
  public var startLine: Int
  public var endLine: Int
  public var kind: String?
}

/// `textDocument/semanticTokens/full`'s answer: five numbers per token, relative to the one before.
public struct SemanticTokens: Codable, Sendable {
  public var data: [Int]
}

/// The numbers the protocol gives kinds of symbols and completion items.
public enum SymbolKind {
  public static let function = 12, variable = 13, array = 18, `operator` = 25
}

/// The numbers the protocol gives kinds of completion items.
public enum CompletionItemKind {
  public static let function = 3, variable = 6, keyword = 14, `operator` = 24
}
