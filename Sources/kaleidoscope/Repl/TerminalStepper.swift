import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

/// The REPL's `:step EXPR` on the terminal: at each step, the frame (its function, its
/// locals) and the source line with a caret under the step, then a prompt: Enter for the
/// next step, `c` to run to the end, `q` to stop. Calls are announced as they happen.
final class TerminalStepper: DebugObserver {
  /// How many elements of an array a step shows.
  static let elementsShown = 8
  private var running = false
  private(set) var stoppedByUser = false
  private let readAnswer: () -> String?

  /// `readAnswer` reads the user's answer to the prompt (nil at the end of input).
  init(readAnswer: @escaping () -> String?) {
    self.readAnswer = readAnswer
  }

  func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
    interpreter.reportedEvents = running ? [] : [.calls]
    // After `c`, Ctrl-C stops the run, as it stops any expression in the REPL.
    if running && ks_take_interrupt() != 0 { throw .interrupted }
    guard !running, let frame = interpreter.debugStack.last else { return }
    ks_flush()
    switch event {
    case .call:
      guard interpreter.functionName(of: frame) != nil else { return }
      Terminal.writeOut("→ \(frame.name)(\(locals(of: frame, in: interpreter, parametersOnly: true)))\n")
    case .return:
      return
    case .step:
      show(node, of: frame, in: interpreter)
      Terminal.writeOut("step> ")
      switch readAnswer()?.trimmed {
      case nil, "q":
        stoppedByUser = true
        throw .interrupted
      case "c":
        running = true
      default:
        break
      }
    }
  }

  func faulted(_ error: InterpreterError, in interpreter: Interpreter) {}

  private func show(_ node: ExprID, of frame: DebugFrame, in interpreter: Interpreter) {
    // Where the step's expression starts (a binary operation's left operand, not its operator).
    let location = interpreter.extent(of: node).start
    let values = locals(of: frame, in: interpreter, parametersOnly: false)
    // No line numbers: the program stepped is the expression after the definitions' text,
    // whose lines are not the ones the user typed.
    Terminal.writeOut("\(frame.name)\(values.isEmpty ? "" : ": \(values)")\n")
    let text = interpreter.sourceLine(location.line)
    let gutter = "  | "
    Terminal.writeOut(gutter + text + "\n")
    Terminal.writeOut(String(repeating: " ", count: gutter.count + max(0, location.column - 1)) + "^\n")
  }

  private func locals(of frame: DebugFrame, in interpreter: Interpreter, parametersOnly: Bool) -> String {
    let all = interpreter.locals(of: frame)
    let shown = parametersOnly ? Array(all.prefix(interpreter.parameterCount(of: frame))) : all
    return shown.map { name, value in
      switch value {
      case .number(let number): return "\(name) = \(RuntimeValues.format(number))"
      case .array(let array):
        let elements = interpreter.elements(of: array, start: 0, count: Self.elementsShown).map(RuntimeValues.format)
        let more = array.count > Self.elementsShown ? ", ..." : ""
        return "\(name) = [\(elements.joined(separator: ", "))\(more)]"
      }
    }.joined(separator: ", ")
  }
}
