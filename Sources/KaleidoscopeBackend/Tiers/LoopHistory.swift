import KaleidoscopeFrontend

/// What the last run of the same program handed to the compiler, in order, read from the
/// machine-code cache; and what this run hands over, filed there when it ends if it
/// differs.
///
/// While a run hands things over in the order the last one did, a loop that is next on the
/// last run's list is asked for as soon as the interpreter reaches it, rather than once it
/// has counted its way to hot: its module, the same as last time (the same order leaves
/// the compiler in the same state), then comes from the cache while its first iterations
/// run. The other hand-overs on the list (a hot function's module, a loop's general code
/// after its code declined a frame) are not brought forward, since they depend on the
/// call or the frame that caused them, but hold the loops after them back until they
/// happen, so that those loops find the compiler as they did. A run that strays from the
/// list (other input) goes on by the usual rules, having at most compiled a loop sooner
/// than it would have. Used on the interpreter's thread only.
final class LoopHistory {
  /// One hand-over to the compiler.
  enum HandOver: Equatable {
    /// A loop's module, with the loops inside it that it runs.
    case loop(Int32, inside: [Int32])
    /// A hot function's module, with the loop around its call, if that was compiled too.
    case function(Int32, loop: Int32?)
    /// A loop's code for any frame, after its code for usual frames declined one.
    case general(Int32)
  }

  private let cache: MachineCodeCache
  private let path: String
  /// Last run's hand-overs, in order.
  private let previous: [HandOver]
  /// This run's, in order.
  private var handedOver: [HandOver] = []
  /// Whether this run has handed over what the last one did so far, in order.
  private var following = true

  init(cache: MachineCodeCache, program: CheckedProgram, optimization: OptimizationLevel, policy: TierPolicy) {
    self.cache = cache
    path = cache.loopHistoryPath(of: program.file.bytes, optimization: optimization, policy: policy)
    // A file that names what the program does not have (damaged, or another program's) is
    // not followed.
    let (loops, functions) = (Int32(program.tree.loopCount), Int32(program.functions.symbols.count))
    let decoded = (cache.loopGroups(at: path) ?? []).map { Self.handOver(from: $0, loops: loops, functions: functions) }
    previous = decoded.allSatisfy { $0 != nil } ? decoded.compactMap { $0 } : []
  }

  /// The loops inside `loop` that its module ran last time, if `loop` is the next the last
  /// run handed over and this run has followed it so far.
  func nextLoopsInside(_ loop: Int32) -> [Int32]? {
    guard following, handedOver.count < previous.count, case .loop(loop, let inside) = previous[handedOver.count]
    else { return nil }
    return inside
  }

  /// Notes a hand-over, and whether this run still follows the last.
  func record(_ handOver: HandOver) {
    if following, handedOver.count >= previous.count || previous[handedOver.count] != handOver { following = false }
    handedOver.append(handOver)
  }

  /// Files this run's hand-overs for the next, unless they are last run's.
  func save() {
    if handedOver != previous { cache.store(loopGroups: handedOver.map(Self.group(of:)), at: path) }
  }

  /// A hand-over as the cache files it: its kind, its index, the loops that go with it.
  static func group(of handOver: HandOver) -> [Int32] {
    switch handOver {
    case .loop(let index, let inside): [0, index] + inside
    case .function(let index, let loop): [1, index] + (loop.map { [$0] } ?? [])
    case .general(let index): [2, index]
    }
  }

  /// The hand-over `group` files, if it is one and names only what the program has.
  static func handOver(from group: [Int32], loops: Int32, functions: Int32) -> HandOver? {
    guard group.count >= 2, group.dropFirst(2).allSatisfy({ (0..<loops).contains($0) }) else { return nil }
    let index = group[1]
    switch group[0] {
    case 0 where (0..<loops).contains(index): return .loop(index, inside: Array(group.dropFirst(2)))
    case 1 where (0..<functions).contains(index) && group.count <= 3: return .function(index, loop: group.dropFirst(2).first)
    case 2 where (0..<loops).contains(index) && group.count == 2: return .general(index)
    default: return nil
    }
  }
}
