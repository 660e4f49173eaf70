import Foundation
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime
import Testing

/// An interpreter host that records what a program prints, formatting values with the
/// runtime's formatter (the one every engine uses) and calling libm through the process.
final class RecordingHost: InterpreterHost {
  var output: [UInt8] = []

  /// A top-level value goes on a line of its own, as the runtime prints it.
  func printValue(_ value: Double) {
    if let last = output.last, last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
    printLine(value)
  }

  private func printLine(_ value: Double) {
    output += Self.format(value).utf8
    output.append(UInt8(ascii: "\n"))
  }

  /// nil for a name neither recorded nor in the process: the interpreter locates the error.
  func external(named name: String) -> ExternalFunction? {
    guard name == "putchard" || name == "printd" || dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil else {
      return nil
    }
    return { [unowned self] arguments throws(InterpreterError) in try self.call(name, Array(arguments)) }
  }

  private func call(_ name: String, _ arguments: [Double]) throws(InterpreterError) -> Double {
    switch (name, arguments.count) {
    case ("putchard", 1):
      output.append(UInt8(truncatingIfNeeded: Int(arguments[0])))
      return 0
    case ("printd", 1):
      printLine(arguments[0])
      return 0
    default:
      let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)!
      switch arguments.count {
      case 1: return unsafeBitCast(address, to: (@convention(c) (Double) -> Double).self)(arguments[0])
      case 2: return unsafeBitCast(address, to: (@convention(c) (Double, Double) -> Double).self)(arguments[0], arguments[1])
      default: throw InterpreterError.external("the recording host calls externs of one or two parameters")
      }
    }
  }

  static func format(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = ks_format_value(value, &buffer, buffer.count)
    return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  var text: String { String(decoding: output, as: UTF8.self) }
}

/// The interpreter against the end-to-end programs' expected output, in process.
@Suite("Interpreter")
struct InterpreterTests {
  static let programsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Programs")

  static let programs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: programsDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".ks") }.map { String($0.dropLast(3)) }.sorted()
  }()

  /// Runs `text` and returns what it printed and the fault, if any.
  static func interpret(
    _ text: String, name: String = "test.ks", forSemantics: ForSemantics = .current, printValues: Bool = true
  ) throws -> (
    String, InterpreterError?
  ) {
    let result = LargeStack.run { Frontend.check(SourceFile(name: name, text: text)) }
    try #require(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let host = RecordingHost()
    let interpreter = Interpreter(program: result.program, host: host, forSemantics: forSemantics, printValues: printValues)
    do {
      try interpreter.run()
      return (host.text, nil)
    } catch {
      return (host.text, error)
    }
  }

  /// The programs are there: a missing folder would make the next test pass with none.
  @Test func theEndToEndProgramsArePresent() {
    #expect(Self.programs.count >= 34)
  }

  @Test("end-to-end programs", arguments: programs)
  func program(name: String) throws {
    let url = Self.programsDirectory.appendingPathComponent("\(name).ks")
    let source = try String(contentsOf: url, encoding: .utf8)
    // Run end to end only: what must not run in the test process, and what reads input.
    guard !source.contains("# IN-PROCESS: no"),
      !FileManager.default.fileExists(atPath: url.deletingPathExtension().appendingPathExtension("in").path)
    else { return }
    let runLine = source.split(separator: "\n").first { $0.hasPrefix("# RUN: ") } ?? ""
    let (output, fault) = try Self.interpret(
      source, name: "\(name).ks", forSemantics: runLine.contains("--for-semantics=legacy") ? .legacy : .current,
      printValues: !runLine.split(separator: " ").contains("-q"))
    let expected = { (suffix: String) in
      (try? String(contentsOf: url.deletingPathExtension().appendingPathExtension(suffix), encoding: .utf8)) ?? ""
    }
    #expect(output == expected("out"))
    #expect((fault.map { "\($0)\n" } ?? "") == expected("err"))
  }

  @Test(
    "IEEE and ordering cases",
    arguments: [
      ("1/0", "inf"), ("-1/0", "-inf"), ("0/0", "nan"), ("(0/0) < 1", "1"), ("1 < 0/0", "1"),
      ("if 0/0 then 1 else 2", "2"), ("if -0 then 1 else 2", "2"), ("0 * -1", "-0"), ("0.1 + 0.2", "0.30000000000000004"),
      ("for i = 0, i < 3 in 1", "0"), ("var a = 1, b = a * 2 in b", "2"), ("var a in a", "0"),
    ])
  func expression(text: String, printed: String) throws {
    #expect(try Self.interpret(text).0 == "\(printed)\n")
  }

  @Test func loopStepAndEndAreEvaluatedEveryIteration() throws {
    let program = """
      extern printd(x)
      def f(n) var steps = 0 in (for i = 0, (steps = steps + 1) < n, i + 1 in 0) + steps
      f(3)
      """
    #expect(try Self.interpret(program).0 == "3\n")
    #expect(try Self.interpret(program, forSemantics: .legacy).0 == "3\n")
    let zeroTrips = "var n = 0 in (for i = 0, i < 0 in n = n + 1) + n"
    #expect(try Self.interpret(zeroTrips).0 == "0\n")
    #expect(try Self.interpret(zeroTrips, forSemantics: .legacy).0 == "1\n")
  }

  @Test func runawayRecursionIsAStackOverflowNotACrash() throws {
    let (output, fault) = try Self.interpret("def f(x) f(x + 1) + 1\n7\nf(0)\n8\n")
    #expect(output == "7\n")
    #expect(fault == .located("test.ks:1:10: runtime error: stack overflow: more than 100000 nested calls"))
  }
}
