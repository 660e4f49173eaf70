/// How serious a diagnostic is.
public enum Severity: String, Sendable {
  case error
  case warning
  case note
}

/// A problem found in a source file, as a value: what, where, and related places.
///
/// The front end never prints; it produces diagnostics, and the tool decides how to show them
/// (see `DiagnosticRenderer`). Tests compare them as values.
public struct Diagnostic: Sendable, CustomStringConvertible {
  public var severity: Severity
  public var message: DiagnosticMessage
  public var file: SourceFile
  public var range: SourceRange
  /// Related places, such as the first definition of a redefined function.
  public var notes: [Note]

  public init(
    _ severity: Severity = .error, _ message: DiagnosticMessage, in file: SourceFile,
    at range: SourceRange, notes: [Note] = []
  ) {
    self.severity = severity
    self.message = message
    self.file = file
    self.range = range
    self.notes = notes
  }

  /// The start of the range as line:column.
  public var location: SourceLocation { file.location(of: range.start) }

  /// `file:line:col: error: message`, the first line of the rendered form.
  public var description: String {
    "\(file.name):\(location): \(severity.rawValue): \(message.text)"
  }
}

/// A secondary message attached to a diagnostic, optionally pointing at a place.
public struct Note: Sendable {
  public var message: DiagnosticMessage
  /// Where the note points; `nil` for a note about the diagnostic as a whole.
  public var file: SourceFile?
  public var range: SourceRange?

  public init(_ message: DiagnosticMessage, in file: SourceFile? = nil, at range: SourceRange? = nil) {
    self.message = message
    self.file = file
    self.range = range
  }
}

/// Collects the diagnostics of one compilation, in the order they were found.
public struct DiagnosticBag: Sendable {
  public private(set) var all: [Diagnostic] = []

  public init() {}

  public mutating func append(_ diagnostic: Diagnostic) {
    all.append(diagnostic)
  }

  public mutating func append(contentsOf other: DiagnosticBag) {
    all.append(contentsOf: other.all)
  }

  public var errorCount: Int { all.lazy.filter { $0.severity == .error }.count }
  public var hasErrors: Bool { all.contains { $0.severity == .error } }
  public var isEmpty: Bool { all.isEmpty }

  /// The diagnostics ordered by position, errors of one place in the order found.
  public var sorted: [Diagnostic] {
    all.enumerated().sorted { lhs, rhs in
      (lhs.element.range.start, lhs.offset) < (rhs.element.range.start, rhs.offset)
    }.map(\.element)
  }
}

/// Two diagnostics are equal when they say the same thing about the same place of the same
/// file (the same `SourceFile` object).
extension Diagnostic: Equatable {
  public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
    lhs.severity == rhs.severity && lhs.message == rhs.message && lhs.file === rhs.file
      && lhs.range == rhs.range && lhs.notes == rhs.notes
  }
}

/// Two notes are equal when they say the same thing about the same place, if any.
extension Note: Equatable {
  public static func == (lhs: Note, rhs: Note) -> Bool {
    lhs.message == rhs.message && lhs.file === rhs.file && lhs.range == rhs.range
  }
}
