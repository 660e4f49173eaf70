import KaleidoscopeInterpreter
import KaleidoscopeRuntime

/// How the debugger writes values: numbers as the language prints them (`printd`, the REPL),
/// arrays by their length and first elements.
enum VariableText {
  static func number(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = ks_format_value(value, &buffer, buffer.count)
    return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `[3, 1, 4, …] (length 100)`: at most `shown` elements.
  static func array(_ array: DebugArray, of interpreter: Interpreter, shown: Int = 8) -> String {
    let elements = interpreter.elements(of: array, start: 0, count: shown).map(number)
    let more = array.count > shown ? ", …" : ""
    return "[\(elements.joined(separator: ", "))\(more)] (length \(array.count))"
  }

  static func value(_ value: DebugValue, of interpreter: Interpreter) -> String {
    switch value {
    case .number(let value): number(value)
    case .array(let debugArray): array(debugArray, of: interpreter)
    }
  }

  /// The value of `expression` in `frame`, or the reason it has none, as text.
  static func describe(_ expression: String, in frame: DebugFrame?, of interpreter: Interpreter) -> String {
    do {
      switch try DebugExpression.evaluate(expression, in: frame, of: interpreter) {
      case .number(let value): return number(value)
      case .array(let debugArray): return array(debugArray, of: interpreter)
      }
    } catch {
      return "<\(error.message)>"
    }
  }
}
