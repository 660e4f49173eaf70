import Dispatch
import KaleidoscopeFrontend
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The compiler's thread: runs jobs one at a time, in the order they come, on a stack that
/// LLVM's recursion fits in (`TieredExecution.compilerStack`).
///
/// One thread, started by the first job and kept until `stop()`, where a thread per compile
/// would map and unmap a large stack each time, before the compile could start. Interrupts
/// (SIGINT) never land on it: the runtime's handler jumps back only on the evaluating thread.
final class CompilerThread: Sendable {
  /// Jobs waiting, in order; a nil job ends the thread. Whether the thread has started.
  private let queue = Mutex<(jobs: [(@Sendable () -> Void)?], started: Bool)>(([], false))
  /// Signalled once per job queued.
  private let queued = DispatchSemaphore(value: 0)

  /// Runs `job` on the compiler thread after the jobs queued before it. If no thread can be
  /// started, runs it here and now.
  func async(_ job: @escaping @Sendable () -> Void) {
    let starts = queue.withLock { queue in
      queue.jobs.append(job)
      defer { queue.started = true }
      return !queue.started
    }
    queued.signal()
    if starts, !LargeStack.detach(size: TieredExecution.compilerStack, { [self] in serve() }) { runHere() }
  }

  /// Runs `job` as `async` does and waits for it. Never called on the compiler thread.
  func sync(_ job: @escaping @Sendable () -> Void = {}) {
    let done = DispatchSemaphore(value: 0)
    async {
      job()
      done.signal()
    }
    done.wait()
  }

  /// Ends the thread once the jobs queued so far are done; no job may come after.
  func stop() {
    let running = queue.withLock { queue in
      if queue.started { queue.jobs.append(nil) }
      return queue.started
    }
    if running { queued.signal() }
  }

  /// Without a thread, the caller does the work queued, until none is left.
  private func runHere() {
    while let next = queue.withLock({ queue -> (@Sendable () -> Void)?? in
      if queue.jobs.isEmpty {
        queue.started = false
        return nil
      }
      return queue.jobs.removeFirst()
    }) {
      queued.wait()
      next?()
    }
  }

  /// The thread's loop: the next job, until a nil one.
  private func serve() {
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_BLOCK, &interrupt, nil)
    while true {
      queued.wait()
      guard let job = queue.withLock({ $0.jobs.removeFirst() }) else { return }
      job()
    }
  }
}
