import Foundation

/// LLVM's FileCheck (llvm-19-tools): matches text against `CHECK:` lines, as LLVM's own IR
/// tests do.
public enum FileCheck {
  public static let path = "/usr/lib/llvm-19/bin/FileCheck"

  /// Runs FileCheck with the checks in `checkFile` on `input`; nil when every check
  /// matches, otherwise FileCheck's report.
  public static func failure(of input: String, checkFile: String) throws -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [checkFile]
    let standardInput = Pipe()
    let errors = Pipe()
    process.standardInput = standardInput
    process.standardError = errors
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input.utf8))
    try standardInput.fileHandleForWriting.close()
    let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : report
  }

  /// `failure(of:checkFile:)` with the checks given as text.
  public static func failure(of input: String, checks: String) throws -> String? {
    let checkFile = NSTemporaryDirectory() + "filecheck-\(getpid())-\(UUID().uuidString).txt"
    try checks.write(toFile: checkFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: checkFile) }
    return try failure(of: input, checkFile: checkFile)
  }
}
