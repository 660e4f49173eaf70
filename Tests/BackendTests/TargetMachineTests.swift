import CLLVM
import Testing

@testable import KaleidoscopeBackend

/// The host's code has the host's instruction set, tuned as clang tunes by default
/// (`generic`) rather than by the host CPU's own scheduling model (`TargetMachine.init`).
@Suite struct TargetMachineTests {
  @Test func theHostMachineHasTheHostsFeaturesAndGenericTuning() throws {
    let machine = try TargetMachine()
    #expect(machine.cpu == "generic")
    #expect(machine.features == takeMessage(LLVMGetHostCPUFeatures()))
    #expect(machine.triple == LLVMTargets.hostTriple)
  }

  @Test func aCrossMachineHasTheGenericCPUToo() throws {
    let machine = try TargetMachine(triple: "aarch64-unknown-linux-gnu")
    #expect(machine.cpu == "generic")
    #expect(machine.features == "")
  }
}
