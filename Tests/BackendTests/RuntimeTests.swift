import Glibc
import KaleidoscopeRuntime
import Testing

/// The runtime's one-line messages for fatal signals.
@Suite("Runtime fault messages")
struct RuntimeTests {
  static let stackPointer: UInt = 0x7fff_0000_8000

  @Test(
    arguments: [
      (SIGSEGV, stackPointer - 8, "runtime error: stack overflow\n"),  // a call pushing its return address
      (SIGSEGV, stackPointer - 40_000, "runtime error: stack overflow\n"),  // a large frame
      (SIGBUS, stackPointer - 8, "runtime error: stack overflow\n"),
      (SIGSEGV, 0, "runtime error: invalid memory access (segmentation fault)\n"),
      (SIGSEGV, 0x5555_0000_1000, "runtime error: invalid memory access (segmentation fault)\n"),
      (SIGBUS, 0x5555_0000_1000, "runtime error: invalid memory access (bus error)\n"),
      (SIGFPE, 0, "runtime error: arithmetic fault\n"),
      (SIGILL, 0, "runtime error: illegal instruction\n"),
      (SIGABRT, 0, "runtime error: aborted\n"),
    ])
  func message(signal: Int32, address: UInt, expected: String) {
    #expect(String(cString: ks_fault_message(signal, address, Self.stackPointer)) == expected)
  }

  /// Without the faulting stack pointer (an unknown machine), no fault is called an overflow.
  @Test func unknownStackPointer() {
    #expect(
      String(cString: ks_fault_message(SIGSEGV, Self.stackPointer - 8, 0))
        == "runtime error: invalid memory access (segmentation fault)\n")
  }
}
