import Testing

/// The folders of cases the parameterized tests iterate: a folder that went missing, or lost
/// its cases, would make those tests pass with nothing run. Each must hold at least as many
/// cases as it did when this was written.
@Suite("Case folders")
struct CaseFolderTests {
  @Test(arguments: [("Programs", 34), ("Golden", 4), ("Diagnostics", 11), ("IR", 8)])
  func everyFolderHoldsItsCases(folder: String, minimum: Int) {
    let count = TestData.programs(in: folder).count
    #expect(count >= minimum, "Tests/EndToEndTests/\(folder) has \(count) programs, fewer than \(minimum)")
  }
}
