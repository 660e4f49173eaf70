#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole front end in one call: parse, then check.
public enum Frontend {
  /// Parses and checks a source file. Sema runs even after syntax errors (a broken definition
  /// still declares its function), so one run reports every independent mistake.
  public static func analyze(_ file: SourceFile) -> SemaResult {
    let parsed = Parser.parse(file)
    var result = Sema.check(parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: result.diagnostics)
    result.diagnostics = diagnostics
    return result
  }

  /// Every diagnostic of a file, as `analyze` reports them, found item by item: each item is
  /// checked as soon as it is parsed and its expressions are then dropped, so memory grows
  /// with the largest item, not with the file. Uses of functions and operators declared
  /// further on are resolved at the end. This is what `kaleidoscope check` runs.
  ///
  /// A large file is cut into parts, one per processor, that are checked at the same time
  /// (`diagnose(_:splittingAt:)`).
  ///
  /// With `freeingMemory` false, what was built to find the diagnostics is kept until the
  /// process exits instead of being taken apart piece by piece, as clang's `-disable-free`
  /// does: a command that exits right after saves the time (8 ms on a 12 MB file).
  public static func diagnose(_ file: SourceFile, freeingMemory: Bool = true) -> DiagnosticBag {
    let parts = min(processorCount, max(1, file.bytes.count / minimumPartSize))
    var splits: [Int] = []
    for part in 1..<parts {
      let target = max(file.bytes.count * part / parts, (splits.last ?? 0) + 1)
      guard let split = Parser.itemStart(in: file, atOrAfter: target) else { break }
      splits.append(split)
    }
    return diagnose(file, splittingAt: splits, freeingMemory: freeingMemory)
  }

  /// A part smaller than this is not worth a thread of its own.
  static let minimumPartSize = 256 << 10

  static let processorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

  /// `diagnose`, with the file cut at `splits`: increasing offsets where lines start with
  /// `def` or `extern` (`Parser.itemStart`), where an item starts whatever comes before.
  ///
  /// Each part is parsed and checked on a thread of its own, as if it were a file of its own
  /// except for two things it cannot know: the operators defined before it, which change how
  /// it parses, are guessed (`Parser.guessOperators`), and uses of functions and operators it
  /// does not declare are put off. The guesses are then checked, and the parts' diagnostics
  /// gathered (`CheckedPart.gathered`), or, when some use resolves nowhere, the parts are
  /// joined to report it (`CheckedPart.joined`). When a guess was wrong, a part ended inside
  /// an item, or two parts declare the same name, the file is checked again in one go, so the
  /// result is always what checking it in one go reports.
  static func diagnose(_ file: SourceFile, splittingAt splits: [Int], freeingMemory: Bool = true) -> DiagnosticBag {
    if !splits.isEmpty, let diagnostics = diagnoseInParts(file, splittingAt: splits, freeingMemory: freeingMemory) {
      return diagnostics
    }
    let whole = check(0..<file.bytes.count, of: file, operators: .standard)
    if !freeingMemory { keepUntilExit(whole) }
    return whole.joinedDiagnostics
  }

  /// `diagnose(_:splittingAt:)` when the parts fit together; nil when the file must be checked
  /// in one go.
  static func diagnoseInParts(_ file: SourceFile, splittingAt splits: [Int], freeingMemory: Bool = true)
    -> DiagnosticBag?
  {
    let parts = checkParts(file, splittingAt: splits)
    if !freeingMemory { keepUntilExit(parts) }
    return CheckedPart.gathered(parts) ?? CheckedPart.joined(parts)
  }

  /// Keeps `value` alive, never to be freed.
  private static func keepUntilExit<Value>(_ value: Value) {
    _ = Unmanaged.passRetained(Kept(value))
  }

  /// A value kept alive by an unbalanced retain (`keepUntilExit`).
  private final class Kept<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  /// The parts of the file cut at `splits`, each checked on a thread of its own.
  static func checkParts(_ file: SourceFile, splittingAt splits: [Int]) -> [CheckedPart] {
    let bounds = [0] + splits + [file.bytes.count]
    return LargeStack.concurrently(
      zip(bounds, bounds.dropFirst()).map { start, end in
        {
          let operators = start == 0 ? .standard : Parser.guessOperators(in: file, before: start)
          return check(start..<end, of: file, operators: operators)
        }
      })
  }

  /// Parses and checks one part of a file, item by item, starting with `operators`.
  private static func check(_ part: Range<Int>, of file: SourceFile, operators: OperatorTable) -> CheckedPart {
    var checker = Checker(tree: SyntaxTree(file: file), functions: FunctionTable(), mode: .file, defers: true)
    let parsed = Parser.parseItemByItem(file, range: part, operators: operators) { tree in
      checker.checkItems(of: &tree)
    }
    return CheckedPart(guessedOperators: operators, parsed: parsed, checker: checker)
  }
}

/// A part of a file, parsed and checked item by item under guessed operators, with the uses
/// it could not resolve put off.
struct CheckedPart {
  /// The operators the part was parsed with, as defined before it.
  var guessedOperators: OperatorTable
  var parsed: ParseResult
  var checker: Checker

  /// Whether the parts may be checked apart: the operators guessed for each part are those the
  /// parts before it define, and no part but the last ends inside an item.
  static func guessesHold(_ parts: [CheckedPart]) -> Bool {
    zip(parts, parts.dropFirst()).allSatisfy { previous, next in
      !previous.parsed.isIncomplete && previous.parsed.operators == next.guessedOperators
    }
  }

  /// The diagnostics of the whole file, when they are just each part's: the guesses hold, no
  /// two parts declare the same name, and every use a part put off resolves in some part. Nil
  /// when that is not so.
  static func gathered(_ parts: [CheckedPart]) -> DiagnosticBag? {
    guard guessesHold(parts) else { return nil }
    let tables = parts.map { (checker: $0.checker, names: $0.parsed.tree.names) }
    // Each part is compared with the others on a thread of its own.
    let fits = LargeStack.concurrently(
      size: 1 << 20,
      tables.indices.map { index in
        {
          let part = tables[index]
          let shares = tables[..<index].contains {
            part.checker.sharesDeclarations(with: $0.checker, names: part.names, otherNames: $0.names)
          }
          let others = Array(tables[..<index] + tables[(index + 1)...])
          return !shares && part.checker.resolvesEveryUse(with: others, names: part.names)
        }
      })
    guard !fits.contains(false) else { return nil }
    var diagnostics = DiagnosticBag()
    for part in parts { diagnostics.append(contentsOf: part.parsed.diagnostics) }
    for part in parts { diagnostics.append(contentsOf: part.checker.diagnostics) }
    return diagnostics
  }

  /// The diagnostics of the whole file, found by joining the parts into one, in order; this
  /// reports the uses that resolve nowhere as checking in one go does. Nil when the guesses do
  /// not hold or two parts declare the same name.
  static func joined(_ parts: consuming [CheckedPart]) -> DiagnosticBag? {
    guard guessesHold(parts), !parts.isEmpty else { return nil }
    // Taken out of the array, the first part's tables are not shared, so they grow in place.
    var whole = parts.removeFirst()
    while !parts.isEmpty {
      guard whole.join(parts.removeFirst()) else { return nil }
    }
    return whole.joinedDiagnostics
  }

  /// Joins the part that follows this one. False when two parts declare the same name.
  private mutating func join(_ next: consuming CheckedPart) -> Bool {
    // On failure the names gain the next part's; the parts are then discarded.
    let renaming = parsed.tree.names.intern(contentsOf: next.parsed.tree.names)
    guard checker.adopt(next.checker, renaming: renaming) else { return false }
    parsed.diagnostics.append(contentsOf: next.parsed.diagnostics)
    parsed.operators = next.parsed.operators
    parsed.isIncomplete = next.parsed.isIncomplete
    return true
  }

  /// The syntax errors, then the semantic ones, with what was put off resolved now: the
  /// diagnostics of a part that is the whole file, or all the parts joined.
  var joinedDiagnostics: DiagnosticBag {
    var checker = checker
    checker.resolveDeferred(in: parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: checker.diagnostics)
    return diagnostics
  }
}
