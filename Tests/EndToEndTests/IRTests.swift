import Foundation
import TestSupport
import Testing

/// `IR/*.ks` hold `# CHECK:` lines that LLVM's FileCheck matches against the output of `ir`
/// (or `cfg`); the first line `# RUN: COMMAND ARGS` gives the command.
@Suite("IR shapes (FileCheck)")
struct IRTests {
  @Test("FileCheck", arguments: TestData.programs(in: "IR"))
  func fileCheck(name: String) throws {
    let path = TestData.path("IR", "\(name).ks")
    let source = try String(contentsOfFile: path, encoding: .utf8)
    let runLine = try #require(source.split(separator: "\n").first { $0.hasPrefix("# RUN: ") })
    let arguments = runLine.dropFirst("# RUN: ".count).split(separator: " ").map(String.init)
    let ir = try Tool.run(arguments + [path])
    #expect(ir.status == 0, "\(ir.stderr)")

    let failure = try FileCheck.failure(of: ir.stdout, checkFile: path)
    #expect(failure == nil, "FileCheck failed for \(name):\n\(failure ?? "")")
  }
}
