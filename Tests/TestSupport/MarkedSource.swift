import KaleidoscopeFrontend

/// Source text with position markers, in the style of swift-syntax's parser tests: `1️⃣`,
/// `2️⃣`, ... stand for byte offsets and are removed before the text is parsed.
public struct MarkedSource: Sendable {
  public let file: SourceFile
  private let offsets: [String: Int]

  public init(_ text: String, name: String = "test.ks") {
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

  public static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  /// The byte offset of a marker.
  public subscript(marker: String) -> Int { offsets[marker]! }

  /// The text without its markers.
  public var text: String { String(decoding: file.bytes, as: UTF8.self) }

  /// A marker's place as an editor names it: a zero-based line and a column in UTF-16
  /// code units (the Language Server Protocol's positions).
  public func position(_ marker: String) -> (line: Int, character: Int) {
    let before = file.bytes[..<self[marker]]
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    let line = before.filter { $0 == UInt8(ascii: "\n") }.count
    return (line, String(decoding: file.bytes[lineStart..<self[marker]], as: UTF8.self).utf16.count)
  }
}
