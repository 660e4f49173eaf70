import KaleidoscopeFrontend

/// The loops the last run of the same program handed to the compiler, each with the loops
/// inside it that its module runs, read from the machine-code cache; and those this run
/// hands over, filed there when it ends if they differ.
///
/// While a run hands loops over in the order the last one did, the next loop on the last
/// run's list is asked for as soon as the interpreter reaches it, rather than once it has
/// counted its way to hot: its module, the same as last time (the same order leaves the
/// compiler in the same state), then comes from the cache while its first iterations run.
/// A run that strays from the list (other input) goes on by the usual rules, having at most
/// compiled a loop sooner than it would have. Used on the interpreter's thread only.
final class LoopHistory {
  private let cache: MachineCodeCache
  private let path: String
  /// Last run's groups: a loop handed over, then the loops inside it its module runs.
  private let previous: [[Int32]]
  /// This run's groups, in the order they were handed over.
  private var handedOver: [[Int32]] = []
  /// Whether this run has handed over last run's groups so far, in order.
  private var following = true

  init(cache: MachineCodeCache, program: CheckedProgram, optimization: OptimizationLevel, policy: TierPolicy) {
    self.cache = cache
    path = cache.loopHistoryPath(of: program.file.bytes, optimization: optimization, policy: policy)
    let loops = Int32(program.tree.loopCount)
    // A file with indices out of range (damaged, or another program's) is not followed.
    let groups = cache.loopGroups(at: path) ?? []
    previous = groups.allSatisfy { $0.allSatisfy { $0 >= 0 && $0 < loops } } ? groups : []
  }

  /// The loops inside `loop` that its module ran last time, if `loop` is the next the last
  /// run handed over and this run has followed it so far.
  func nextLoopsInside(_ loop: Int32) -> [Int32]? {
    guard following, handedOver.count < previous.count, previous[handedOver.count][0] == loop else { return nil }
    return Array(previous[handedOver.count].dropFirst())
  }

  /// Notes that `loop` was handed over, with the loops `inside` it that its module runs.
  func handedOver(_ loop: Int32, inside: [Int32]) {
    let group = [loop] + inside
    if following, handedOver.count >= previous.count || previous[handedOver.count] != group { following = false }
    handedOver.append(group)
  }

  /// Files this run's loops for the next, unless they are last run's.
  func save() {
    if handedOver != previous { cache.store(loopGroups: handedOver, at: path) }
  }
}
