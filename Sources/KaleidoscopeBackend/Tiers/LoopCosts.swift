import KaleidoscopeFrontend

/// Roughly what one iteration of a loop costs the interpreter: the nodes it evaluates, each
/// call counted as the callee's body, so that a loop is hot after about as long in the
/// interpreter whatever its iterations do (`hotIterations(ofLoop:index:)`). A loop whose
/// iteration calls a helper that calls eight more (Life's neighbour count) took 4,096
/// iterations, a whole generation, to get hot, where 4,096 iterations of a loop that adds
/// two numbers pass in a blink.
///
/// Used on the interpreter's thread only; each loop's answer is kept.
final class LoopCosts {
  private let graph: CallGraph
  private let policy: TierPolicy
  /// Each loop's `hotIterations`, by its index among the tree's loops; -1 until asked for.
  private var hotIterations: [Int]
  /// Each defined function's cost, by `FunctionID.index`, once known; `inProgress` while
  /// it is walked, so that a recursive call counts as `limit` rather than looping.
  private var functions: [Int32: Int] = [:]
  private static let inProgress = -1
  /// Costs stop growing here (recursion, or calls nested deep).
  static let limit = 1 << 20
  /// Calls followed no deeper (each level is a recursion on this thread).
  private static let depthLimit = 64
  /// The cost of an iteration that `TierPolicy.hotIterations` is meant for: about that of
  /// the loop-nest shapes' body (two element accesses, a sum into a global, a sequence).
  static let referenceCost = 32

  init(_ graph: CallGraph, policy: TierPolicy) {
    self.graph = graph
    self.policy = policy
    hotIterations = [Int](repeating: -1, count: graph.program.tree.loopCount)
  }

  /// The iterations that make the loop at `node` hot: `policy.hotIterations` for an
  /// iteration that costs `referenceCost` or less, proportionally fewer for a costlier one,
  /// but never fewer than 1/32 of them (and at least 1, so that a test's "late" promotion
  /// still happens in the middle of a loop).
  func hotIterations(ofLoop node: ExprID, index: Int32) -> Int {
    let known = hotIterations[Int(index)]
    if known >= 0 { return known }
    let most = policy.hotIterations
    // A policy that never promotes gives `Int.max`, which scaling would overflow.
    let (product, overflow) = most.multipliedReportingOverflow(by: Self.referenceCost)
    let scaled = overflow ? most : product / max(1, iterationCost(of: node))
    let answer = most > 1 ? min(most, max(scaled, max(1, most / 32))) : most
    hotIterations[Int(index)] = answer
    return answer
  }

  /// What an iteration of the loop at `node` costs: its test, its body and its step.
  func iterationCost(of node: ExprID) -> Int {
    guard case .loop(let index) = graph.program.tree[node] else { return 1 }
    switch graph.program.tree.loop(index) {
    case .forLoop(let parts):
      return [parts.end, parts.body, parts.step].compactMap { $0 }.reduce(0) { Self.add($0, cost(under: $1)) }
    case .whileLoop(let parts):
      return Self.add(cost(under: parts.condition), cost(under: parts.body))
    }
  }

  /// The nodes under `root` (a loop inside counted once), plus each defined callee's cost
  /// at every call.
  private func cost(under root: ExprID, depth: Int = 0) -> Int {
    var total = 0
    var work = [SyntaxNode(.expr(root))]
    while let next = work.popLast(), total < Self.limit {
      total += 1
      if case .expr(let id) = next.reference, graph.calls(id), let callee = graph.program.callee(of: id),
        graph.definitions[Int(callee.index)] != nil
      {
        total = Self.add(total, cost(of: callee, depth: depth + 1))
      }
      work += graph.program.tree.children(of: next)
    }
    return min(total, Self.limit)
  }

  /// A defined function's cost: that of its body, once.
  private func cost(of function: FunctionID, depth: Int) -> Int {
    if let known = functions[function.index] { return known == Self.inProgress ? Self.limit : known }
    guard depth < Self.depthLimit else { return Self.limit }
    functions[function.index] = Self.inProgress
    let cost = cost(under: graph.definitions[Int(function.index)]!.body, depth: depth)
    functions[function.index] = cost
    return cost
  }

  private static func add(_ a: Int, _ b: Int) -> Int { min(a + b, limit) }
}
