import Synchronization
import Testing

@testable import KaleidoscopeBackend

#if canImport(Glibc)
  import Glibc
#endif

/// The compiler's thread runs jobs in the order they come, one at a time, on one thread with
/// a stack deep enough for LLVM, and ends when stopped.
@Suite("Compiler thread")
struct CompilerThreadTests {
  @Test func jobsRunInOrderOnOneThreadOtherThanTheCaller() {
    let thread = CompilerThread()
    let seen = Mutex<[(job: Int, thread: pthread_t)]>([])
    for job in 0..<50 {
      thread.async { seen.withLock { $0.append((job, pthread_self())) } }
    }
    thread.sync()
    let log = seen.withLock { $0 }
    #expect(log.map { $0.job } == Array(0..<50))
    #expect(Set(log.map { UInt($0.thread) }).count == 1)
    #expect(log.allSatisfy { pthread_equal($0.thread, pthread_self()) == 0 })
    thread.stop()
  }

  @Test func syncWaitsForItsJobAndThoseBefore() {
    let thread = CompilerThread()
    let count = Atomic<Int>(0)
    for _ in 0..<10 {
      thread.async {
        usleep(1000)
        count.add(1, ordering: .relaxed)
      }
    }
    thread.sync { count.add(1, ordering: .relaxed) }
    let total = count.load(ordering: .relaxed)
    #expect(total == 11)
    thread.stop()
  }

  @Test func theStackFitsDeepRecursion() {
    let thread = CompilerThread()
    let depth = Atomic<Int>(0)
    // Over 15 MB of frames, beyond a default thread's 8 MB.
    thread.sync { depth.store(recurse(30_000), ordering: .relaxed) }
    let reached = depth.load(ordering: .relaxed)
    #expect(reached == 30_000)
    thread.stop()
  }

  @Test func jobsQueuedBeforeStopStillRun() {
    let thread = CompilerThread()
    let ran = Atomic<Bool>(false)
    thread.async {
      usleep(2000)
      ran.store(true, ordering: .relaxed)
    }
    thread.stop()
    usleep(50_000)
    let done = ran.load(ordering: .relaxed)
    #expect(done)
  }
}

/// Recursion `depth` deep, each frame with 512 bytes of its own.
@inline(never)
private func recurse(_ depth: Int) -> Int {
  guard depth > 0 else { return 0 }
  return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { bytes in
    bytes.initialize(repeating: UInt8(truncatingIfNeeded: depth))
    return Int(bytes[511] &- bytes[0]) + 1 + recurse(depth - 1)
  }
}
