import Dispatch
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeLSP
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope dap`: a Debug Adapter Protocol server on standard input and output that
/// runs one program in the interpreter with a `DebugSession` watching it (SPEC §8).
///
/// Requests are handled one at a time, in order, on the calling thread; the program runs
/// on a thread of its own. A request that is malformed, unknown or untimely (variables
/// while the program runs) gets an error response; nothing a client sends ends the server
/// but `disconnect`.
public final class DebugAdapter {
  let host: InterpreterHost
  let connection: DAPConnection
  private let input: Int32
  var output: OutputCapture?

  var program: CheckedProgram?
  var interpreter: Interpreter?
  var session: DebugSession?
  var path = ""
  var breakpointLines = BreakpointLines(lines: [])
  private var nextBreakpointID = 1
  private var configured = false
  private var started = false
  let programEnded = DispatchSemaphore(value: 0)
  /// What `variablesReference`s stand for while the program is stopped.
  var references: [Int: VariableScope] = [:]

  /// Takes over descriptors 0 to 2: the protocol moves to copies of 0 and 1, and the
  /// program's output to pipes (`OutputCapture`).
  public init(host: InterpreterHost) {
    self.host = host
    input = dup(0)
    connection = DAPConnection(output: dup(1))
    let empty = open("/dev/null", O_RDONLY)
    if empty >= 0 {
      dup2(empty, 0)
      close(empty)
    }
  }

  /// Serves until `disconnect` or the end of input; returns the exit status.
  public func run() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    output = OutputCapture(connection: connection)
    output?.start()
    var reader = MessageReader(descriptor: input)
    while true {
      switch reader.next() {
      case .end:
        return 0
      case .malformed:
        connection.respond(to: [:], error: "a message without a usable Content-Length header")
      case .message(let bytes):
        guard let request = JSON.parse(bytes), request["type"]?.string == "request",
          let command = request["command"]?.string
        else {
          connection.respond(to: JSON.parse(bytes) ?? [:], error: "not a request: expected type 'request' and a command")
          continue
        }
        if handle(command, request) { return 0 }
      }
    }
  }

  /// Handles one request; true when the server should end.
  private func handle(_ command: String, _ request: JSON) -> Bool {
    let arguments = request["arguments"] ?? [:]
    switch command {
    case "initialize": connection.respond(to: request, body: Self.capabilities)
    case "launch": launch(request, arguments)
    case "setBreakpoints": setBreakpoints(request, arguments)
    case "setFunctionBreakpoints": setFunctionBreakpoints(request, arguments)
    case "setExceptionBreakpoints": setExceptionBreakpoints(request, arguments)
    case "configurationDone":
      connection.respond(to: request)
      configured = true
      startIfReady()
    case "threads": connection.respond(to: request, body: ["threads": [["id": 1, "name": "main"]]])
    case "stackTrace": stackTrace(request, arguments)
    case "scopes": scopes(request, arguments)
    case "variables": variables(request, arguments)
    case "evaluate": evaluate(request, arguments)
    case "setVariable": setVariable(request, arguments)
    case "continue": resume(request, .run, body: ["allThreadsContinued": true])
    case "next": resume(request, .next(depth: interpreter?.debugDepth ?? 0))
    case "stepIn": resume(request, .stepIn)
    case "stepOut": resume(request, .stepOut(depth: interpreter?.debugDepth ?? 0))
    case "pause":
      session?.pauseRequested.store(true, ordering: .relaxed)
      connection.respond(to: request)
    case "terminate":
      end()
      connection.respond(to: request)
    case "disconnect":
      end()
      connection.respond(to: request)
      return true
    default:
      connection.respond(to: request, error: "unknown request '\(command)'")
    }
    return false
  }

  static let capabilities: JSON = [
    "supportsConfigurationDoneRequest": true, "supportsFunctionBreakpoints": true,
    "supportsConditionalBreakpoints": true, "supportsHitConditionalBreakpoints": true,
    "supportsLogPoints": true, "supportsSetVariable": true, "supportsEvaluateForHovers": true,
    "supportsTerminateRequest": true,
    "exceptionBreakpointFilters": [["filter": "runtime", "label": "Runtime errors", "default": true]],
  ]

  // MARK: - Launching and ending

  private func launch(_ request: JSON, _ arguments: JSON) {
    guard program == nil else { return connection.respond(to: request, error: "a program is launched already") }
    guard let path = arguments["program"]?.string, !path.isEmpty else {
      return connection.respond(to: request, error: "launch needs 'program', the path of a .ks file")
    }
    let file: SourceFile
    do {
      file = try SourceReader.load(path: path)
    } catch {
      return connection.respond(to: request, error: "\(error)")
    }
    if let stdin = arguments["stdin"]?.string {
      let descriptor = open(stdin, O_RDONLY)
      guard descriptor >= 0 else {
        return connection.respond(to: request, error: "cannot read '\(stdin)': \(String(cString: strerror(errno)))")
      }
      dup2(descriptor, 0)
      close(descriptor)
    }
    let result = LargeStack.run { Frontend.check(file) }
    guard !result.diagnostics.hasErrors else {
      let renderer = DiagnosticRenderer(useColor: false)
      let text = result.diagnostics.all.map(renderer.render).joined()
      connection.event("output", ["category": "stderr", "output": .string(text)])
      return connection.respond(to: request, error: "'\(path)' has errors; the Debug Console shows them")
    }
    guard let output else { return connection.respond(to: request, error: "cannot capture the program's output") }
    let interpreter = Interpreter(program: result.program, host: host)
    let session = DebugSession(
      program: result.program, interpreter: interpreter, connection: connection, output: output,
      stopsOnEntry: arguments["stopOnEntry"] == .bool(true))
    interpreter.debugObserver = session
    (self.program, self.interpreter, self.session, self.path) = (result.program, interpreter, session, path)
    breakpointLines = BreakpointLines(lines: interpreter.linesWithCode)
    connection.respond(to: request)
    connection.event("initialized")
  }

  /// Runs the program once it is launched and the client has set its breakpoints.
  private func startIfReady() {
    guard configured, !started, let interpreter, let session, let output else { return }
    started = true
    let connection = connection
    let ended = programEnded
    nonisolated(unsafe) let running = interpreter
    Thread.detach("program") {
      var status: Int32 = 0
      var message: String?
      do throws(InterpreterError) {
        try running.run()
      } catch {
        status = 1
        if error != .reported && error != .interrupted { message = "\(error)\n" }
      }
      ks_flush()
      if let message { _ = message.withCString { write(2, $0, strlen($0)) } }
      output.drain()
      if !session.terminateRequested.load(ordering: .relaxed) {
        connection.event("exited", ["exitCode": .number(Double(status))])
      }
      connection.event("terminated")
      ended.signal()
    }
  }

  /// Stops the program: at its next step, or at once when it is stopped; waits a second
  /// for it (an extern may be blocked reading input).
  private func end() {
    guard let session, started else { return }
    session.terminateRequested.store(true, ordering: .relaxed)
    if session.isStopped.load(ordering: .acquiring) { session.resume(.run) }
    _ = programEnded.wait(timeout: .now() + .seconds(1))
  }

  private func resume(_ request: JSON, _ mode: DebugSession.Mode, body: JSON = [:]) {
    guard let session, session.isStopped.load(ordering: .acquiring) else {
      return connection.respond(to: request, error: "the program is not stopped")
    }
    references = [:]
    connection.respond(to: request, body: body)
    session.resume(mode)
  }

  // MARK: - Breakpoints

  private func setBreakpoints(_ request: JSON, _ arguments: JSON) {
    guard case .array(let asked)? = arguments["breakpoints"] else {
      return connection.respond(to: request, error: "setBreakpoints needs 'breakpoints'")
    }
    guard asked.allSatisfy({ $0["line"]?.number != nil }) else {
      return connection.respond(to: request, error: "each breakpoint needs a numeric 'line'")
    }
    var table: [Int: Breakpoint] = [:]
    var answers: [JSON] = []
    for entry in asked {
      let line = Int(entry["line"]?.number ?? 0)
      let hitText = entry["hitCondition"]?.string ?? ""
      let hitCondition = HitCondition(hitText)
      guard hitText.isEmpty || hitCondition != nil else {
        answers.append(["verified": false, "line": .number(Double(line)), "message": .string("not a hit count: '\(hitText)'")])
        continue
      }
      guard program != nil, let resolved = breakpointLines.resolve(line) else {
        let reason = program == nil ? "the program is not launched" : "no code at or after line \(line)"
        answers.append(["verified": false, "line": .number(Double(line)), "message": .string(reason)])
        continue
      }
      let breakpoint = Breakpoint(
        id: takeBreakpointID(), line: resolved, condition: entry["condition"]?.string, hitCondition: hitCondition,
        logMessage: entry["logMessage"]?.string)
      table[resolved] = breakpoint
      var answer: [String: JSON] = ["id": .number(Double(breakpoint.id)), "verified": true, "line": .number(Double(resolved))]
      if resolved != line { answer["message"] = .string("moved from line \(line), which has no code, to line \(resolved)") }
      answers.append(.object(answer))
    }
    session?.update { $0.byLine = table }
    connection.respond(to: request, body: ["breakpoints": .array(answers)])
  }

  private func setFunctionBreakpoints(_ request: JSON, _ arguments: JSON) {
    guard case .array(let asked)? = arguments["breakpoints"] else {
      return connection.respond(to: request, error: "setFunctionBreakpoints needs 'breakpoints'")
    }
    let defined = Set(program?.bodies.compactMap { $0.function.map { program!.functions[$0].spelling } } ?? [])
    var table: [String: Breakpoint] = [:]
    var answers: [JSON] = []
    for entry in asked {
      let name = entry["name"]?.string ?? ""
      guard defined.contains(name) else {
        answers.append(["verified": false, "message": .string("no function '\(name)' is defined")])
        continue
      }
      let breakpoint = Breakpoint(
        id: takeBreakpointID(), line: 0, condition: entry["condition"]?.string,
        hitCondition: entry["hitCondition"]?.string.flatMap(HitCondition.init), logMessage: nil)
      table[name] = breakpoint
      answers.append(["id": .number(Double(breakpoint.id)), "verified": true])
    }
    session?.update { $0.byFunction = table }
    connection.respond(to: request, body: ["breakpoints": .array(answers)])
  }

  private func setExceptionBreakpoints(_ request: JSON, _ arguments: JSON) {
    guard case .array(let filters)? = arguments["filters"] else {
      return connection.respond(to: request, error: "setExceptionBreakpoints needs 'filters'")
    }
    let stops = filters.contains(.string("runtime"))
    session?.update { $0.stopsOnRuntimeErrors = stops }
    connection.respond(to: request, body: ["breakpoints": .array(filters.map { _ in ["verified": true] })])
  }

  private func takeBreakpointID() -> Int {
    defer { nextBreakpointID += 1 }
    return nextBreakpointID
  }
}
