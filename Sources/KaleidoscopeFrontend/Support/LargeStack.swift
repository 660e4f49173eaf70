#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs work on a thread with a large stack.
///
/// The passes are recursive over expression nesting, which the parser bounds
/// (`Parser.defaultNestingLimit`); a generous stack makes that bound safe in debug builds too.
/// The stack is reserved address space: only the pages actually used cost memory.
public enum LargeStack {
  /// 1 GiB of address space.
  public static let defaultSize = 1 << 30

  /// Calls `body` on a new thread with a stack of `size` bytes and waits for it.
  ///
  /// (It makes no array of one body for `concurrently`: instantiating the generic types that
  /// takes costs the Swift runtime a scan of every protocol conformance in the binary, 0.2
  /// million instructions at the start of every `run`.)
  public static func run<T>(size: Int = defaultSize, _ body: () -> T) -> T {
    withoutActuallyEscaping(body) { body in
      var result: T?
      // The thread writes only `result`, which this thread reads after joining it.
      let job = Job { result = body() }
      if let thread = start(job, size: size) { pthread_join(thread, nil) } else { job.work() }
      return result!
    }
  }

  /// Calls each of `bodies` on a new thread of its own, all at once, and waits for them all.
  /// The bodies must not share mutable state.
  public static func concurrently<T>(size: Int = defaultSize, _ bodies: [() -> T]) -> [T] {
    let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: bodies.count)
    results.initialize(repeating: nil)
    defer {
      _ = results.deinitialize()
      results.deallocate()
    }
    var threads: [pthread_t] = []
    for index in bodies.indices {
      let body = bodies[index]
      // Each job writes only its own element of `results`.
      let job = Job { results[index] = body() }
      if let thread = start(job, size: size) { threads.append(thread) } else { job.work() }
    }
    for thread in threads { pthread_join(thread, nil) }
    return results.map { $0! }
  }

  /// Calls `first` on this thread while `second` runs on a new thread with a stack of `size`
  /// bytes, and waits for both.
  @discardableResult
  public static func concurrently<First, Second>(
    _ first: () -> First, _ second: @escaping () -> Second, size: Int = defaultSize
  ) -> (First, Second) {
    var secondResult: Second?
    // `second` writes only `secondResult`, which this thread reads after joining it.
    let job = Job { secondResult = second() }
    guard let thread = start(job, size: size) else {
      return (first(), second())
    }
    let firstResult = first()
    pthread_join(thread, nil)
    return (firstResult, secondResult!)
  }

  /// The closure a thread runs, boxed so it can cross the C boundary.
  private final class Job {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
  }

  /// Runs the job on a new thread; nil if no thread could be created.
  private static func start(_ job: Job, size: Int) -> pthread_t? {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, size)
    let context = Unmanaged.passRetained(job).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { context in
        Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Job>.fromOpaque(context).release()
      return nil
    }
    #if canImport(Glibc)
      return thread
    #else
      return thread!
    #endif
  }
}
