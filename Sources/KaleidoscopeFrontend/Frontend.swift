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
  public static func diagnose(_ file: SourceFile) -> DiagnosticBag {
    let parts = min(processorCount, max(1, file.bytes.count / minimumPartSize))
    var splits: [Int] = []
    for part in 1..<max(parts, 1) {
      let target = max(file.bytes.count * part / parts, (splits.last ?? 0) + 1)
      guard let split = Parser.itemStart(in: file, atOrAfter: target) else { break }
      splits.append(split)
    }
    return diagnose(file, splittingAt: splits)
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
  /// does not declare are put off. The parts are then joined in order (`Checker.adopt`), and
  /// the guesses checked. When a guess was wrong, a part ended inside an item, or two parts
  /// declare the same name, the file is checked again in one go, so the result is always what
  /// checking it in one go reports.
  static func diagnose(_ file: SourceFile, splittingAt splits: [Int]) -> DiagnosticBag {
    if !splits.isEmpty, let diagnostics = diagnoseInParts(file, splittingAt: splits) { return diagnostics }
    return diagnose(part: 0..<file.bytes.count, of: file, operators: .standard).diagnostics
  }

  /// `diagnose(_:splittingAt:)` when the parts join up; nil when the file must be checked in
  /// one go.
  static func diagnoseInParts(_ file: SourceFile, splittingAt splits: [Int]) -> DiagnosticBag? {
    let bounds = [0] + splits + [file.bytes.count]
    var parts = LargeStack.concurrently(
      zip(bounds, bounds.dropFirst()).map { start, end in
        {
          let operators = start == 0 ? .standard : Parser.guessOperators(in: file, before: start)
          return (operators, diagnose(part: start..<end, of: file, operators: operators))
        }
      })
    var whole = parts.removeFirst().1
    while !parts.isEmpty {
      let (guessedOperators, part) = parts.removeFirst()
      guard whole.join(part, guessedOperators: guessedOperators) else { return nil }
    }
    return whole.diagnostics
  }

  /// Parses and checks one part of a file, item by item.
  private static func diagnose(part: Range<Int>, of file: SourceFile, operators: OperatorTable) -> CheckedPart {
    var checker = Checker(tree: SyntaxTree(file: file), functions: FunctionTable(), mode: .file, defers: true)
    let parsed = Parser.parseItemByItem(file, range: part, operators: operators) { tree in
      checker.checkItems(of: &tree)
    }
    return CheckedPart(parsed: parsed, checker: checker)
  }
}

/// A part of a file, parsed and checked item by item, with the uses it could not resolve put
/// off.
private struct CheckedPart {
  var parsed: ParseResult
  var checker: Checker

  /// Joins the part that follows this one, which was parsed with `guessedOperators` as the
  /// operators defined before it. False when that part must be checked after this one instead.
  mutating func join(_ next: consuming CheckedPart, guessedOperators: OperatorTable) -> Bool {
    guard !parsed.isIncomplete, parsed.operators == guessedOperators else { return false }
    // On failure the names gain the next part's; the parts are then discarded.
    let renaming = parsed.tree.names.intern(contentsOf: next.parsed.tree.names)
    guard checker.adopt(next.checker, renaming: renaming) else { return false }
    parsed.diagnostics.append(contentsOf: next.parsed.diagnostics)
    parsed.operators = next.parsed.operators
    parsed.isIncomplete = next.parsed.isIncomplete
    return true
  }

  /// The syntax errors, then the semantic ones, with what was put off resolved now.
  var diagnostics: DiagnosticBag {
    var checker = checker
    checker.resolveDeferred(in: parsed.tree)
    var diagnostics = parsed.diagnostics
    diagnostics.append(contentsOf: checker.diagnostics)
    return diagnostics
  }
}

