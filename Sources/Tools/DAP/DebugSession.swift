import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeLSP
import KaleidoscopeRuntime
import Synchronization

/// The program's side of a debugging session: the interpreter's observer, which decides at
/// each step point whether to stop, and stops by waiting until the client resumes it.
///
/// Two threads meet here. The program's thread runs the interpreter and calls `reached`;
/// the request loop handles the client. While the program runs, the loop only sets flags
/// the program's thread reads at its next step (`pauseRequested`, `terminateRequested`) and
/// swaps the breakpoint table (`breakpoints`, noticed by its generation number). While the
/// program is stopped, its thread waits on `resumed` and the loop reads the interpreter's
/// frames freely; it sets `resumeMode` before signalling.
final class DebugSession: DebugObserver, @unchecked Sendable {
  /// How the program goes on after a stop.
  enum Mode {
    case run
    case stepIn
    /// Stop at the next step point in a frame at most this deep.
    case next(depth: Int)
    /// Stop at the next step point in a frame less deep than this.
    case stepOut(depth: Int)
  }

  let connection: DAPConnection
  let output: OutputCapture
  let stopsOnEntry: Bool
  /// The line of each expression node, by `ExprID.index`.
  private let lineOfNode: [Int32]
  /// The function each body defines, by body index (nil for top-level code).
  private let functionOfBody: [String?]

  let pauseRequested = Atomic(false)
  let terminateRequested = Atomic(false)
  /// Whether the program is stopped: its frames may be read.
  let isStopped = Atomic(false)
  private let breakpoints = Mutex(BreakpointTable())
  private let generation = Atomic(0)
  private let resumed = DispatchSemaphore(value: 0)
  var resumeMode = Mode.run

  // The program's thread's own state.
  private var table = BreakpointTable()
  /// The lines of `table.byLine`, as flags by line: tested at every step.
  private var lineHasBreakpoint: [Bool] = []
  private var seenGeneration = -1
  private var mode = Mode.run
  private var hits: [Int: Int] = [:]
  private var started = false
  /// After the frame being stepped in returned: stop at the next event this shallow.
  private var stopInCaller: Int?

  init(
    program: CheckedProgram, interpreter: Interpreter, connection: DAPConnection, output: OutputCapture,
    stopsOnEntry: Bool
  ) {
    self.connection = connection
    self.output = output
    self.stopsOnEntry = stopsOnEntry
    lineOfNode = (0..<interpreter.nodeCount).map {
      Int32(interpreter.location(of: ExprID(index: Int32($0))).line)
    }
    functionOfBody = program.bodies.map { body in body.function.map { program.functions[$0].spelling } }
  }

  /// Replaces the breakpoints; the program sees them at its next step.
  func update(_ change: (inout BreakpointTable) -> Void) {
    breakpoints.withLock { change(&$0) }
    generation.add(1, ordering: .releasing)
  }

  /// Resumes a stopped program (the request loop).
  func resume(_ newMode: Mode) {
    resumeMode = newMode
    isStopped.store(false, ordering: .releasing)
    resumed.signal()
  }

  // MARK: - The observer, on the program's thread

  func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
    if terminateRequested.load(ordering: .relaxed) { throw .interrupted }
    let current = generation.load(ordering: .acquiring)
    if current != seenGeneration {
      seenGeneration = current
      table = breakpoints.withLock { $0 }
      lineHasBreakpoint = [Bool](repeating: false, count: (table.byLine.keys.max() ?? 0) + 1)
      for line in table.byLine.keys { lineHasBreakpoint[line] = true }
      chooseEvents(of: interpreter)
    }
    switch event {
    case .step:
      try step(at: node, in: interpreter)
    case .call:
      guard !table.byFunction.isEmpty, let body = interpreter.innermostBody, let name = functionOfBody[body],
        let breakpoint = table.byFunction[name]
      else { return }
      try consider(breakpoint, reason: "function breakpoint", in: interpreter)
    case .return:
      try returning(in: interpreter)
    }
  }

  /// A frame is returning. When stepping was to stop in it, it stops in its caller instead,
  /// at the caller's next event (its return too: a stop at the call it is in).
  private func returning(in interpreter: Interpreter) throws(InterpreterError) {
    let depth = interpreter.debugDepth
    // A stop here shows the frame at its last step; the mode the client then gives applies
    // to this same return.
    if let target = stopInCaller, depth <= target { try stop("step", in: interpreter) }
    switch mode {
    case .run: return
    case .stepIn: break
    case .next(let limit), .stepOut(let limit): if depth > limit { return }
    }
    // A top-level expression's caller is the next top-level expression.
    stopInCaller = max(1, depth - 1)
  }

  private func step(at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
    if !started {
      started = true
      if stopsOnEntry { return try stop("entry", in: interpreter) }
    }
    // A load first: an exchange at every step would cost a locked instruction.
    if pauseRequested.load(ordering: .relaxed) {
      pauseRequested.store(false, ordering: .relaxed)
      return try stop("pause", in: interpreter)
    }
    if let target = stopInCaller, interpreter.debugDepth <= target { return try stop("step", in: interpreter) }
    switch mode {
    case .run: break
    case .stepIn: return try stop("step", in: interpreter)
    case .next(let depth) where interpreter.debugDepth <= depth: return try stop("step", in: interpreter)
    case .stepOut(let depth) where interpreter.debugDepth < depth: return try stop("step", in: interpreter)
    case .next, .stepOut: break
    }
    let line = Int(lineOfNode[Int(node.index)])
    guard line < lineHasBreakpoint.count, lineHasBreakpoint[line], let breakpoint = table.byLine[line] else { return }
    try consider(breakpoint, reason: "breakpoint", in: interpreter)
  }

  /// Stops at `breakpoint` if its condition and hit count say so, or prints its log message.
  private func consider(_ breakpoint: Breakpoint, reason: String, in interpreter: Interpreter) throws(InterpreterError) {
    let frame = interpreter.debugStack.last
    if let condition = breakpoint.condition, !condition.isEmpty {
      guard case .number(let value)? = try? DebugExpression.evaluate(condition, in: frame, of: interpreter),
        !value.isNaN, value != 0
      else { return }
    }
    let count = hits[breakpoint.id, default: 0] + 1
    hits[breakpoint.id] = count
    if let hitCondition = breakpoint.hitCondition, !hitCondition.holds(atHit: count) { return }
    if let message = breakpoint.logMessage {
      ks_flush()
      output.drain()
      let text = LogMessage.interpolate(message, in: frame, of: interpreter)
      connection.event("output", ["category": "console", "output": .string(text + "\n")])
      return
    }
    try stop(reason, hitBreakpointIDs: [breakpoint.id], in: interpreter)
  }

  /// Stops: tells the client, waits until it resumes the program, and takes the mode it
  /// gave.
  private func stop(
    _ reason: String, description: String? = nil, hitBreakpointIDs: [Int] = [], in interpreter: Interpreter
  ) throws(InterpreterError) {
    ks_flush()
    output.drain()
    isStopped.store(true, ordering: .releasing)
    var body: [String: JSON] = ["reason": .string(reason), "threadId": 1, "allThreadsStopped": true]
    if let description {
      body["description"] = .string(description)
      body["text"] = .string(description)
    }
    if !hitBreakpointIDs.isEmpty { body["hitBreakpointIds"] = .array(hitBreakpointIDs.map { .number(Double($0)) }) }
    connection.event("stopped", .object(body))
    resumed.wait()
    mode = resumeMode
    stopInCaller = nil
    chooseEvents(of: interpreter)
    if terminateRequested.load(ordering: .relaxed) { throw .interrupted }
  }

  /// Asks for calls only while there are function breakpoints, and for returns only while
  /// stepping: running to a line breakpoint then costs one call of `reached` a step.
  private func chooseEvents(of interpreter: Interpreter) {
    var events: DebugEvents = []
    if !table.byFunction.isEmpty { events.insert(.calls) }
    if case .run = mode {} else { events.insert(.returns) }
    interpreter.reportedEvents = events
  }

  func faulted(_ error: InterpreterError, in interpreter: Interpreter) {
    guard table.stopsOnRuntimeErrors, !terminateRequested.load(ordering: .relaxed) else { return }
    try? stop("exception", description: "\(error)", in: interpreter)
  }
}

/// A logpoint's message with each `{expression}` replaced by its value in the frame.
enum LogMessage {
  static func interpolate(_ message: String, in frame: DebugFrame?, of interpreter: Interpreter) -> String {
    var result = ""
    var rest = Substring(message)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      result += rest[..<open]
      let expression = String(rest[rest.index(after: open)..<close])
      result += VariableText.describe(expression, in: frame, of: interpreter)
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }
}
