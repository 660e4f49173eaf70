import CLLVM
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// LLVM's command-line options, which belong to the whole process and are never unset. They
/// are set through one lock: LLVM's parser keeps its state in globals, and two threads
/// parsing at once (a test of `ir --passes` beside one of `build`) lost an option.
enum LLVMOptions {
  private static let lock = Mutex(())

  /// Sets `options` (each as on `llc`'s command line) for the rest of the process.
  static func set(_ options: [String]) {
    LLVMLibrary.prepare()
    lock.withLock { _ in
      var pointers = (["kaleidoscope"] + options).map { strdup($0).map { UnsafePointer($0) } }
      defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
      LLVMParseCommandLineOptions(Int32(pointers.count), &pointers, nil)
    }
  }
}
