import Foundation
import Testing

/// `IR/*.ks` hold `# CHECK:` lines that LLVM's FileCheck matches against the `ir` output;
/// the first line `# RUN: ir ARGS` gives the command.
@Suite("IR shapes (FileCheck)")
struct IRTests {
  static let fileCheck = "/usr/lib/llvm-19/bin/FileCheck"

  @Test("FileCheck", arguments: TestData.programs(in: "IR"))
  func fileCheck(name: String) throws {
    let path = TestData.path("IR", "\(name).ks")
    let source = try String(contentsOfFile: path, encoding: .utf8)
    let runLine = try #require(source.split(separator: "\n").first { $0.hasPrefix("# RUN: ") })
    let arguments = runLine.dropFirst("# RUN: ".count).split(separator: " ").map(String.init)
    let ir = try Tool.run(arguments + [path])
    #expect(ir.status == 0, "\(ir.stderr)")

    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.fileCheck)
    process.arguments = [path]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(ir.stdout.utf8))
    try input.fileHandleForWriting.close()
    let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "FileCheck failed for \(name):\n\(report)")
  }
}
