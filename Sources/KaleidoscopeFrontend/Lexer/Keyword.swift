/// The language's reserved words: the one list that the lexer recognises, that the parser's
/// error recovery consults, that the REPL completes, and that a test holds the fuzzers'
/// dictionary to. A new keyword is a new case here; every `switch` over keywords then fails
/// to compile until it says what the keyword does.
public enum Keyword: String, CaseIterable, Sendable {
  case def, extern
  case `if`, then, `else`
  case `for`, `while`, `in`
  case `var`
  case binary, unary
  /// `len(a)`, an array's length (SPEC §5).
  case len

  /// How the keyword is written.
  public var spelling: String { rawValue }

  /// Whether an item can begin with this keyword; error recovery resumes at such a keyword
  /// when it starts a line.
  var canStartItem: Bool {
    switch self {
    case .def, .extern, .if, .for, .while, .var, .len: true
    case .then, .else, .in, .binary, .unary: false
    }
  }
}

/// Finds the keyword a word spells, if any, with one table lookup and one comparison.
///
/// Every keyword has a different combination of length, first letter and last letter, so
/// those three index a table of candidates; the word is then compared with the candidate's
/// spelling. The table is built from `Keyword.allCases`, so it cannot fall out of date.
struct KeywordTable: Sendable {
  /// The table's candidates, indexed by `key`; a keyword's index in `Keyword.allCases`, plus one,
  /// or 0 for none.
  private let candidates: [UInt8]
  private let keywords: [Keyword]
  private let spellings: [[UInt8]]
  private let maximumLength: Int

  static let shared = KeywordTable()

  private init() {
    keywords = Keyword.allCases
    spellings = keywords.map { Array($0.spelling.utf8) }
    maximumLength = spellings.map(\.count).max()!
    var candidates = [UInt8](repeating: 0, count: (maximumLength + 1) << 10)
    for (index, spelling) in spellings.enumerated() {
      let key = Self.key(length: spelling.count, first: spelling.first!, last: spelling.last!)
      precondition(candidates[key] == 0, "two keywords share a length, first letter and last letter")
      candidates[key] = UInt8(index + 1)
    }
    self.candidates = candidates
  }

  /// The length and the low five bits of the first and last letters.
  private static func key(length: Int, first: UInt8, last: UInt8) -> Int {
    length << 10 | Int(first & 0x1F) << 5 | Int(last & 0x1F)
  }

  /// The keyword `word` spells, if any. `word` is an identifier: letters, digits and `_`.
  @inline(__always)
  func keyword(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Keyword? {
    guard word.count >= 2, word.count <= maximumLength else { return nil }
    let candidate = Int(candidates[Self.key(length: word.count, first: word.first!, last: word[word.endIndex - 1])])
    guard candidate > 0 else { return nil }
    let spelling = spellings[candidate - 1]
    for offset in 0..<word.count where word[word.startIndex + offset] != spelling[offset] { return nil }
    return keywords[candidate - 1]
  }
}
