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

public struct TextRange: Codable, Hashable, Sendable {
  public var start: Position
  public var end: Position

  public init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }
}

public struct Location: Codable, Hashable, Sendable {
  public var uri: String
  public var range: TextRange
}

public struct TextDocumentIdentifier: Codable, Sendable {
  public var uri: String
}

public struct TextDocumentItem: Codable, Sendable {
  public var uri: String
  public var languageId: String?
  public var version: Int
  public var text: String
}

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

public struct DidOpenParams: Codable, Sendable { public var textDocument: TextDocumentItem }
public struct DidCloseParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }
public struct DidChangeParams: Codable, Sendable {
  public var textDocument: VersionedTextDocumentIdentifier
  public var contentChanges: [TextDocumentContentChangeEvent]
}

/// `textDocument` and `position`: hover, definition, completion, signature help, ...
public struct TextDocumentPositionParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var position: Position
}

public struct ReferenceParams: Codable, Sendable {
  public struct Context: Codable, Sendable { public var includeDeclaration: Bool }
  public var textDocument: TextDocumentIdentifier
  public var position: Position
  public var context: Context?
}

public struct RenameParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var position: Position
  public var newName: String
}

public struct DocumentParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }

public struct RangeParams: Codable, Sendable {
  public var textDocument: TextDocumentIdentifier
  public var range: TextRange
}

public struct CodeActionParams: Codable, Sendable {
  public struct Context: Codable, Sendable { public var diagnostics: [LSPDiagnostic]? }
  public var textDocument: TextDocumentIdentifier
  public var range: TextRange
  public var context: Context?
}

public struct WorkspaceSymbolParams: Codable, Sendable { public var query: String }

public struct CancelParams: Codable, Sendable { public var id: JSON }

public struct DiagnosticRelatedInformation: Codable, Sendable, Equatable {
  public var location: Location
  public var message: String
}

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

public struct PublishDiagnosticsParams: Codable, Sendable {
  public var uri: String
  public var version: Int?
  public var diagnostics: [LSPDiagnostic]
}

public struct TextEdit: Codable, Sendable, Equatable {
  public var range: TextRange
  public var newText: String
}

public struct WorkspaceEdit: Codable, Sendable {
  public var changes: [String: [TextEdit]]
}

public struct CodeAction: Codable, Sendable {
  public var title: String
  public var kind: String
  public var diagnostics: [LSPDiagnostic]?
  public var isPreferred: Bool?
  public var edit: WorkspaceEdit
}

public struct MarkupContent: Codable, Sendable {
  public var kind: String
  public var value: String
}

public struct Hover: Codable, Sendable {
  public var contents: MarkupContent
  public var range: TextRange?
}

public struct PrepareRenameResult: Codable, Sendable {
  public var range: TextRange
  public var placeholder: String
}

public struct CompletionItem: Codable, Sendable {
  public var label: String
  /// 3 function, 6 variable, 14 keyword, 24 operator, ...
  public var kind: Int
  public var detail: String?
  public var documentation: String?
  public var sortText: String?
}

public struct CompletionList: Codable, Sendable {
  public var isIncomplete: Bool
  public var items: [CompletionItem]
}

public struct ParameterInformation: Codable, Sendable {
  /// The parameter's start and end offsets (UTF-16) in the signature's label.
  public var label: [Int]
}

public struct SignatureInformation: Codable, Sendable {
  public var label: String
  public var documentation: String?
  public var parameters: [ParameterInformation]
}

public struct SignatureHelp: Codable, Sendable {
  public var signatures: [SignatureInformation]
  public var activeSignature: Int
  public var activeParameter: Int
}

public struct DocumentSymbol: Codable, Sendable {
  public var name: String
  public var detail: String?
  /// 12 function, 13 variable, 18 array, 25 operator, ...
  public var kind: Int
  public var range: TextRange
  public var selectionRange: TextRange
  public var children: [DocumentSymbol]?
}

public struct SymbolInformation: Codable, Sendable {
  public var name: String
  public var kind: Int
  public var location: Location
  public var containerName: String?
}

public struct FoldingRange: Codable, Sendable {
  public var startLine: Int
  public var endLine: Int
  public var kind: String?
}

public struct SemanticTokens: Codable, Sendable {
  public var data: [Int]
}

/// The numbers the protocol gives kinds of symbols and completion items.
public enum SymbolKind {
  public static let function = 12, variable = 13, array = 18, `operator` = 25
}

public enum CompletionItemKind {
  public static let function = 3, variable = 6, keyword = 14, `operator` = 24
}
