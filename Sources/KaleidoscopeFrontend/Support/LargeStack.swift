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

  /// Calls `body` on a new thread with a stack of `size` bytes and waits for it; what it
  /// throws is thrown here.
  public static func run<T, Failure: Error>(size: Int = defaultSize, _ body: () throws(Failure) -> T) throws(Failure) -> T {
    try withoutActuallyEscaping(body) { body throws(Failure) in
      var result: Result<T, Failure>?
      // The thread writes only `result`, which this thread reads after joining it.
      let job = Job { result = Result(catching: body) }
      if let thread = start(job, size: size) { pthread_join(thread, nil) } else { job.work() }
      return try result!.get()
    }
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
