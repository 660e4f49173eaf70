import Testing

@testable import KaleidoscopeBackend

/// LLJIT is described with a generic CPU (it never compiles: modules arrive as objects made
/// by the host's target machine); what it links for must still be exactly the host's.
@Suite struct JITTargetTests {
  @Test func theJITLinksForTheHostTripleAndDataLayout() throws {
    let machine = try JIT.machine(optimization: .standard)
    let jit = try JIT(machine: machine)
    #expect(jit.triple == machine.triple)
    #expect(jit.dataLayout == machine.dataLayout)
  }
}
