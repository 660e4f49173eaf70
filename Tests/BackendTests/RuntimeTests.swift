import Foundation
import Glibc
import KaleidoscopeRuntime
import Testing

/// Where the runtime runs a program, and its one-line messages for fatal signals.
@Suite("Runtime")
struct RuntimeTests {
  /// The stack the program `ks_run_main` last ran saw: its size, and whether the mapping
  /// just below it cannot be touched.
  nonisolated(unsafe) static var programStack: (size: UInt, guarded: Bool)?

  /// Executables and `--tier jit` run the program on `KS_STACK_SIZE` bytes of stack of its
  /// own, below which an overflow faults, so that `KS_CALL_DEPTH_LIMIT` calls fit there as
  /// in the interpreter.
  @Test func aProgramRunsOnAStackOfItsOwn() throws {
    ks_run_main { RuntimeTests.programStack = RuntimeTests.region(containing: UInt(bitPattern: ks_stack_address())) }
    let stack = try #require(Self.programStack)
    #expect(stack.size >= UInt(KS_STACK_SIZE) - (1 << 16))
    #expect(stack.guarded)
  }

  /// The size of the mapping that holds `address`, and whether the one just below it is
  /// inaccessible, from /proc/self/maps.
  static func region(containing address: UInt) -> (size: UInt, guarded: Bool)? {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
    let regions = maps.split(separator: "\n").map { line in
      let fields = line.split(separator: " ")
      let bounds = fields[0].split(separator: "-").map { UInt($0, radix: 16) ?? 0 }
      return (range: bounds[0]..<bounds[1], permissions: fields[1])
    }
    guard let index = regions.firstIndex(where: { $0.range.contains(address) }) else { return nil }
    let stack = regions[index].range
    let below = index > 0 ? regions[index - 1] : nil
    let guarded = below.map { $0.range.upperBound == stack.lowerBound && $0.permissions.hasPrefix("---") } ?? false
    return (UInt(stack.count), guarded)
  }

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
