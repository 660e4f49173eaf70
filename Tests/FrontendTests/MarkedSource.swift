import KaleidoscopeFrontend

/// Source text with position markers, in the style of swift-syntax's parser tests: `1️⃣`,
/// `2️⃣`, ... stand for byte offsets and are removed before the text is parsed.
struct MarkedSource {
  let file: SourceFile
  private let offsets: [String: Int]

  init(_ text: String, name: String = "test.ks") {
    var bytes: [UInt8] = []
    var offsets: [String: Int] = [:]
    var rest = Substring(text)
    while !rest.isEmpty {
      if let marker = Self.markers.first(where: { rest.hasPrefix($0) }) {
        offsets[marker] = bytes.count
        rest = rest.dropFirst(marker.count)
      } else {
        bytes += Array(String(rest.first!).utf8)
        rest = rest.dropFirst()
      }
    }
    self.file = SourceFile(name: name, bytes: bytes)
    self.offsets = offsets
  }

  static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  /// The byte offset of a marker.
  subscript(marker: String) -> Int { offsets[marker]! }
}

/// Parses and checks source text, on a large stack as the tool does.
func analyze(_ file: SourceFile) -> FrontendResult {
  LargeStack.run { Frontend.check(file) }
}

/// The diagnostics as (marker offset, message) pairs in source order, for compact expectations.
func errors(of result: FrontendResult) -> [(Int, DiagnosticMessage)] {
  result.diagnostics.sorted.map { ($0.range.start, $0.message) }
}
