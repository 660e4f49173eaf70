/// What the server tells the client it can do, in answer to `initialize`.
extension LanguageServer {
  static let initializeResult: JSON = [
    "capabilities": [
      "positionEncoding": "utf-16",
      "textDocumentSync": ["openClose": true, "change": 2],  // incremental
      "hoverProvider": true,
      "definitionProvider": true,
      "referencesProvider": true,
      "renameProvider": ["prepareProvider": true],
      "documentSymbolProvider": true,
      "workspaceSymbolProvider": true,
      "foldingRangeProvider": true,
      "completionProvider": ["triggerCharacters": []],
      "signatureHelpProvider": ["triggerCharacters": ["(", ","], "retriggerCharacters": [","]],
      "codeActionProvider": ["codeActionKinds": ["quickfix"]],
      "documentFormattingProvider": true,
      "documentRangeFormattingProvider": true,
      "semanticTokensProvider": [
        "legend": [
          "tokenTypes": .array(SemanticTokenType.allCases.map { .string($0.name) }),
          "tokenModifiers": .array(SemanticTokenModifier.allCases.map { .string($0.name) }),
        ],
        "full": true,
      ],
    ],
    "serverInfo": ["name": "kaleidoscope"],
  ]
}
