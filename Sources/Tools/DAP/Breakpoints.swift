/// A breakpoint as the client set it: where, and what decides whether it stops.
struct Breakpoint: Sendable {
  let id: Int
  /// The line it is on: the one asked for, or the next line with code.
  let line: Int
  /// A `DebugExpression` that must hold (not 0, not NaN) for it to stop.
  let condition: String?
  /// Which hits stop (`HitCondition`).
  let hitCondition: HitCondition?
  /// A logpoint's message: `{expression}`s are replaced by their values, and the message
  /// is printed instead of stopping.
  let logMessage: String?
}

/// A hit count condition, as editors write them: `5` or `== 5` (the fifth hit), `>= 5`,
/// `> 5`, `< 5`, `<= 5`, `% 5` (every fifth).
struct HitCondition: Sendable, Equatable {
  /// How the hit count compares with `count`, spelled as editors write it.
  enum Relation: String, Sendable, CaseIterable {
    case equal = "=="
    case atLeast = ">="
    case atMost = "<="
    case more = ">"
    case less = "<"
    case every = "%"
  }

  let relation: Relation
  let count: Int

  init?(_ text: String) {
    var rest = Substring(text.filter { $0 != " " })
    var relation = Relation.equal
    // The two-character relations first: `>=` before `>`.
    for candidate in Relation.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
    where rest.hasPrefix(candidate.rawValue) {
      relation = candidate
      rest = rest.dropFirst(candidate.rawValue.count)
      break
    }
    guard let count = Int(rest), count >= 0 else { return nil }
    if relation == .every && count == 0 { return nil }
    self.relation = relation
    self.count = count
  }

  /// Whether the `hits`-th hit (1-based) stops.
  func holds(atHit hits: Int) -> Bool {
    switch relation {
    case .equal: hits == count
    case .atLeast: hits >= count
    case .atMost: hits <= count
    case .more: hits > count
    case .less: hits < count
    case .every: hits % count == 0
    }
  }
}

/// Where breakpoints can go: the lines with code (`Interpreter.linesWithCode`). A line
/// without code moves to the next one that has some, as debuggers of compiled languages do.
struct BreakpointLines: Sendable {
  let lines: [Int]

  /// The line a breakpoint asked for at `line` goes to, or nil when no code follows.
  func resolve(_ line: Int) -> Int? {
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if lines[middle] < line { low = middle + 1 } else { high = middle }
    }
    return low < lines.count ? lines[low] : nil
  }
}

/// The breakpoints the program's thread checks, swapped whole when the client changes them.
struct BreakpointTable: Sendable {
  /// Line breakpoints, by line.
  var byLine: [Int: Breakpoint] = [:]
  /// Function breakpoints, by function name.
  var byFunction: [String: Breakpoint] = [:]
  /// Whether a runtime error stops the program (the `runtime` exception filter).
  var stopsOnRuntimeErrors = true
}
