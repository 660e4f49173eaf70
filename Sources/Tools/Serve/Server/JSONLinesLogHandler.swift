import Foundation
import Logging

/// The server's log: one JSON object a line on standard error (`time`, `level`, `message`,
/// then the metadata, such as a request's `request_id`), for log collectors to read.
struct JSONLinesLogHandler: LogHandler {
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .info
  let label: String

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let (level, message, extra) = (event.level, event.message, event.metadata)
    var fields: [String: String] = ["level": level.rawValue, "message": message.description, "logger": label]
    fields["time"] = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    for (key, value) in metadata.merging(extra ?? [:], uniquingKeysWith: { _, new in new }) {
      fields[key] = value.description
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(fields) else { return }
    FileHandle.standardError.write(data + Data("\n".utf8))
  }
}
