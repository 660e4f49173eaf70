import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import Testing

/// Records what the interpreter tells a debugger: each stop as `line:function:locals`.
private final class RecordingObserver: DebugObserver {
  var stops: [String] = []
  var events: [String] = []
  var fault: String?
  var faultStack: [String] = []

  func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
    let frame = interpreter.debugStack.last!
    events.append("\(event) \(frame.name)")
    guard case .step = event else { return }
    let locals = interpreter.locals(of: frame).map { name, value in
      switch value {
      case .number(let number): "\(name)=\(RecordingHost.format(number))"
      case .array(let array):
        "\(name)=\(interpreter.elements(of: array, start: 0, count: array.count).map(RecordingHost.format))"
      }
    }
    stops.append("\(interpreter.location(of: node).line):\(frame.name):\(locals.joined(separator: ","))")
  }

  func faulted(_ error: InterpreterError, in interpreter: Interpreter) {
    fault = "\(error)"
    faultStack = interpreter.debugStack.map(\.name)
  }
}

/// The interpreter's debug hooks (`Interpreter+Debugging.swift`), which `kaleidoscope dap`
/// and the trace are built on.
@Suite("Interpreter debugging")
struct InterpreterDebuggingTests {
  private func observe(_ text: String) throws -> (RecordingObserver, Interpreter, InterpreterError?) {
    let result = LargeStack.run { Frontend.check(SourceFile(name: "t.ks", text: text)) }
    try #require(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let interpreter = Interpreter(program: result.program, host: RecordingHost(), printValues: false)
    let observer = RecordingObserver()
    interpreter.debugObserver = observer
    do {
      try interpreter.run()
      return (observer, interpreter, nil)
    } catch {
      return (observer, interpreter, error)
    }
  }

  @Test func itStopsAtEachLineAndEachIterationWithTheLocals() throws {
    let (observer, interpreter, error) = try observe(
      """
      def sum(n)
        var total = 0 in
          (for i = 0, i < n in total = total + i) +
          total
      sum(3)
      """)
    #expect(error == nil)
    #expect(
      observer.stops == [
        "5:top level:", "2:sum:n=3,total=0,i=0", "3:sum:n=3,total=0,i=0", "3:sum:n=3,total=0,i=0",
        "3:sum:n=3,total=0,i=1", "3:sum:n=3,total=1,i=2", "4:sum:n=3,total=3,i=3",
      ])
    #expect(interpreter.linesWithCode == [2, 3, 4, 5])
  }

  @Test func callsAndReturnsNestAndTheStackShowsEveryFrame() throws {
    let (observer, _, _) = try observe("def f(n) if n < 2 then n else f(n - 1)\nf(2)\n")
    #expect(
      observer.events.filter { !$0.hasPrefix("step") } == [
        "call top level", "call f", "call f", "return f", "return f", "return top level",
      ])
  }

  @Test func aRuntimeErrorIsSeenWithItsFramesBeforeTheRunEnds() throws {
    let (observer, _, error) = try observe("var a[2]\ndef get(i) a[i]\nget(5)\n")
    #expect(observer.fault == "t.ks:2:12: runtime error: index 5 is out of bounds for 'a' (length 2)")
    #expect(observer.faultStack == ["top level", "get"])
    #expect(error != nil)
  }

  @Test func valuesCanBeSetWhileStopped() throws {
    /// Sets a local and a global at the first step inside `f`.
    final class Setter: DebugObserver {
      func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
        guard case .step = event, let frame = interpreter.debugStack.last, frame.name == "f" else { return }
        _ = interpreter.setLocal("x", of: frame, to: 40)
        _ = interpreter.setGlobal("g", to: 2)
      }
      func faulted(_ error: InterpreterError, in interpreter: Interpreter) {}
    }
    let result = LargeStack.run { Frontend.check(SourceFile(name: "t.ks", text: "var g = 0\ndef f(x) x + g\nf(1)\n")) }
    let host = RecordingHost()
    let interpreter = Interpreter(program: result.program, host: host)
    let setter = Setter()
    interpreter.debugObserver = setter
    try interpreter.run()
    #expect(host.text == "42\n")
  }
}
