import Foundation

/// The coders the API uses.
enum JSON {
  static let decoder = JSONDecoder()

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    return encoder
  }

  /// A readable reason a body could not be decoded, for the 400 answer.
  static func reason(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, _)?: "missing field '\(key.stringValue)'"
    case .typeMismatch(_, let context)? where context.codingPath.isEmpty: "the body must be a JSON object"
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
      "wrong type for '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    case .dataCorrupted?: "the body is not valid JSON"
    default: "the body is not valid JSON"
    }
  }
}
