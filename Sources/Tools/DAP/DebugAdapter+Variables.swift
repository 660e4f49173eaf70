import KaleidoscopeInterpreter
import KaleidoscopeLSP

/// What a `variablesReference` stands for while the program is stopped.
enum VariableScope {
  case locals(DebugFrame)
  case globals
  case array(DebugArray)
}

/// The requests that look at a stopped program: its stack, scopes and variables, and
/// expressions in a frame.
extension DebugAdapter {
  /// The interpreter, when the program is stopped; else the error response is sent.
  private func stopped(_ request: JSON) -> Interpreter? {
    guard let interpreter, let session, session.isStopped.load(ordering: .acquiring) else {
      connection.respond(to: request, error: "the program is not stopped")
      return nil
    }
    return interpreter
  }

  /// The frame a `frameId` names: its position in the stack, outermost first, plus 1.
  private func frame(_ id: JSON?, of interpreter: Interpreter) -> DebugFrame? {
    guard let id = id?.number.map(Int.init) else { return nil }
    let stack = interpreter.debugStack
    return stack.indices.contains(id - 1) ? stack[id - 1] : nil
  }

  func stackTrace(_ request: JSON, _ arguments: JSON) {
    guard let interpreter = stopped(request) else { return }
    let stack = interpreter.debugStack
    let start = max(0, arguments["startFrame"]?.number.map(Int.init) ?? 0)
    let levels = arguments["levels"]?.number.map(Int.init) ?? 0
    let end = levels > 0 ? min(stack.count, start + levels) : stack.count
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let frames: [JSON] = (min(start, end)..<end).map { position in
      let index = stack.count - 1 - position
      let location = interpreter.location(of: stack[index].node)
      return [
        "id": .number(Double(index + 1)), "name": .string(stack[index].name),
        "source": ["name": .string(name), "path": .string(path)],
        "line": .number(Double(location.line)), "column": .number(Double(location.column)),
      ]
    }
    connection.respond(to: request, body: ["stackFrames": .array(frames), "totalFrames": .number(Double(stack.count))])
  }

  func scopes(_ request: JSON, _ arguments: JSON) {
    guard let interpreter = stopped(request) else { return }
    guard let frame = frame(arguments["frameId"], of: interpreter) else {
      return connection.respond(to: request, error: "no frame \(arguments["frameId"]?.number.map { "\(Int($0))" } ?? "given")")
    }
    let locals = reference(to: .locals(frame))
    let globals = reference(to: .globals)
    connection.respond(
      to: request,
      body: [
        "scopes": [
          ["name": "Locals", "presentationHint": "locals", "variablesReference": .number(Double(locals)), "expensive": false],
          ["name": "Globals", "variablesReference": .number(Double(globals)), "expensive": false],
        ]
      ])
  }

  func variables(_ request: JSON, _ arguments: JSON) {
    guard let interpreter = stopped(request) else { return }
    guard let number = arguments["variablesReference"]?.number, let scope = references[Int(number)] else {
      return connection.respond(to: request, error: "no variables with that reference")
    }
    let list: [JSON]
    switch scope {
    case .locals(let frame): list = interpreter.locals(of: frame).map { variable($0.name, $0.value, of: interpreter) }
    case .globals: list = interpreter.globalValues.map { variable($0.name, $0.value, of: interpreter) }
    case .array(let array):
      let start = max(0, arguments["start"]?.number.map(Int.init) ?? 0)
      let count = arguments["count"]?.number.map(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? array.count
      list = interpreter.elements(of: array, start: start, count: count).enumerated().map { offset, value in
        ["name": .string("[\(start + offset)]"), "value": .string(VariableText.number(value)), "variablesReference": 0]
      }
    }
    connection.respond(to: request, body: ["variables": .array(list)])
  }

  private func variable(_ name: String, _ value: DebugValue, of interpreter: Interpreter) -> JSON {
    var fields: [String: JSON] = [
      "name": .string(name), "value": .string(VariableText.value(value, of: interpreter)), "variablesReference": 0,
      "type": "number",
    ]
    if case .array(let array) = value {
      fields["type"] = "array"
      fields["variablesReference"] = .number(Double(reference(to: .array(array))))
      fields["indexedVariables"] = .number(Double(array.count))
    }
    return .object(fields)
  }

  private func reference(to scope: VariableScope) -> Int {
    let number = references.count + 1
    references[number] = scope
    return number
  }

  func evaluate(_ request: JSON, _ arguments: JSON) {
    guard let interpreter = stopped(request) else { return }
    guard let expression = arguments["expression"]?.string else {
      return connection.respond(to: request, error: "evaluate needs 'expression'")
    }
    let frame = frame(arguments["frameId"], of: interpreter) ?? interpreter.debugStack.last
    do {
      switch try DebugExpression.evaluate(expression, in: frame, of: interpreter) {
      case .number(let value):
        connection.respond(to: request, body: ["result": .string(VariableText.number(value)), "variablesReference": 0])
      case .array(let array):
        connection.respond(
          to: request,
          body: [
            "result": .string(VariableText.array(array, of: interpreter)),
            "variablesReference": .number(Double(reference(to: .array(array)))),
            "indexedVariables": .number(Double(array.count)),
          ])
      }
    } catch {
      connection.respond(to: request, error: error.message)
    }
  }

  func setVariable(_ request: JSON, _ arguments: JSON) {
    guard let interpreter = stopped(request) else { return }
    guard let number = arguments["variablesReference"]?.number, let scope = references[Int(number)],
      let name = arguments["name"]?.string, let text = arguments["value"]?.string
    else { return connection.respond(to: request, error: "setVariable needs 'variablesReference', 'name' and 'value'") }
    let frame: DebugFrame? = if case .locals(let frame) = scope { frame } else { interpreter.debugStack.last }
    guard case .number(let value)? = try? DebugExpression.evaluate(text, in: frame, of: interpreter) else {
      return connection.respond(to: request, error: "'\(text)' is not a number here")
    }
    let done: Bool
    switch scope {
    case .locals(let frame): done = interpreter.setLocal(name, of: frame, to: value)
    case .globals: done = interpreter.setGlobal(name, to: value)
    case .array(let array):
      let index = Int(name.dropFirst().dropLast()) ?? -1
      done = name.hasPrefix("[") && interpreter.setElement(index, of: array, to: value)
    }
    guard done else { return connection.respond(to: request, error: "no number '\(name)' to set here") }
    connection.respond(to: request, body: ["value": .string(VariableText.number(value))])
  }
}
