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
  public static func run<T>(size: Int = defaultSize, _ body: () -> T) -> T {
    var result: T?
    withoutActuallyEscaping(body) { body in
      let job = Job { result = body() }
      if !start(job, size: size) { job.work() }
    }
    return result!
  }

  /// The closure a thread runs, boxed so it can cross the C boundary.
  private final class Job {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
  }

  /// Runs the job on a new thread and joins it; false if no thread could be created.
  private static func start(_ job: Job, size: Int) -> Bool {
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
      return false
    }
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #else
      pthread_join(thread!, nil)
    #endif
    return true
  }
}
