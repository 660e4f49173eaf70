import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

/// Records a run step by step for the playground's stepper (SPEC §8, `POST /api/trace`):
/// at every step, call and return, where the run is, every frame with its locals, the
/// globals, the array elements read and written since the step before, and how much output
/// came before. The run ends after `maxSteps`, or when the
/// trace reaches `byteLimit`; either way the trace says it was truncated.
///
/// The trace is written as JSON directly: 20,000 steps with their frames must encode in
/// milliseconds, which a general encoder does not manage. Numbers are the language's own
/// format; NaN and the infinities, which JSON lacks, are the strings "nan", "inf", "-inf".
final class TraceRecorder: DebugObserver {
  let maxSteps: Int
  let byteLimit: Int
  /// Arrays show at most this many elements in a step.
  static let elementLimit = 1000
  private(set) var steps = 0
  private(set) var truncated = false
  /// `{"steps":[…` so far.
  private(set) var json: [UInt8] = Array(#"{"steps":["#.utf8)
  private var extents: [Int32: (start: SourceLocation, end: SourceLocation)] = [:]
  private var recentNumbers = RecentNumbers()

  init(maxSteps: Int, byteLimit: Int = 4 << 20) {
    self.maxSteps = maxSteps
    self.byteLimit = byteLimit
    // Room for the largest trace at once: one that grows copies megabytes each time it
    // doubles, and pages that are never written cost nothing.
    json.reserveCapacity(byteLimit + (64 << 10))
  }

  func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError) {
    guard steps < maxSteps, json.count < byteLimit else {
      truncated = true
      throw .interrupted
    }
    record(event, at: node, in: interpreter)
  }

  /// A runtime error ends the trace at its last step; the error itself is on standard error.
  func faulted(_ error: InterpreterError, in interpreter: Interpreter) {}

  /// The element accesses since the last step, which the next step carries.
  private var accesses: [(array: String, index: Int, isWrite: Bool)] = []
  /// At most this many accesses are kept between two steps (a loop on one line makes many).
  static let accessLimit = 64

  func accessed(_ array: String, index: Int, isWrite: Bool) {
    if accesses.count < Self.accessLimit { accesses.append((array, index, isWrite)) }
  }

  /// Ends the trace and writes it whole, `{"steps":[…],"truncated":…}` and a newline, to
  /// `descriptor`; once, after the run.
  func finish(writingTo descriptor: Int32) {
    append(#"],"truncated":\#(truncated)}"# + "\n")
    json.withUnsafeBufferPointer { Terminal.write($0, to: descriptor) }
  }

  private func record(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) {
    let extent = extents[node.index] ?? interpreter.extent(of: node)
    extents[node.index] = extent
    if steps > 0 { json.append(UInt8(ascii: ",")) }
    steps += 1
    let name =
      switch event {
      case .step: "step"
      case .call: "call"
      case .return: "return"
      }
    append(
      #"{"line":\#(extent.start.line),"column":\#(extent.start.column),"endLine":\#(extent.end.line),"#
        + #""endColumn":\#(extent.end.column),"event":"\#(name)","frames":["#)
    for (index, frame) in interpreter.debugStack.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      append(#"{"function":"#)
      appendString(interpreter.functionName(of: frame) ?? frame.name)
      append(#","line":\#(interpreter.location(of: frame.node).line),"locals":"#)
      appendValues(interpreter.locals(of: frame), of: interpreter)
      json.append(UInt8(ascii: "}"))
    }
    append(#"],"globals":"#)
    appendValues(interpreter.globalValues, of: interpreter)
    append(#","accesses":["#)
    for (position, access) in accesses.enumerated() {
      if position > 0 { json.append(UInt8(ascii: ",")) }
      append(#"{"array":"#)
      appendString(access.array)
      append(#","index":\#(access.index),"kind":"\#(access.isWrite ? "write" : "read")"}"#)
    }
    accesses.removeAll(keepingCapacity: true)
    append(#"],"stdoutLength":\#(ks_output_count())}"#)
  }

  private func appendValues(_ values: [(name: String, value: DebugValue)], of interpreter: Interpreter) {
    json.append(UInt8(ascii: "{"))
    var first = true
    for position in values.indices.reversed() {
      let (name, value) = values[position]
      // A shadowed name shows its innermost variable, the one the code sees: the last. A
      // body has a few locals, so a scan costs less than hashing each name at every step.
      if values[(position + 1)...].contains(where: { $0.name == name }) { continue }
      if !first { json.append(UInt8(ascii: ",")) }
      first = false
      appendString(name)
      json.append(UInt8(ascii: ":"))
      switch value {
      case .number(let number): appendNumber(number)
      case .array(let array):
        json.append(UInt8(ascii: "["))
        for (position, element) in interpreter.elements(of: array, start: 0, count: Self.elementLimit).enumerated() {
          if position > 0 { json.append(UInt8(ascii: ",")) }
          appendNumber(element)
        }
        json.append(UInt8(ascii: "]"))
      }
    }
    json.append(UInt8(ascii: "}"))
  }

  /// A number in the language's format (`ks_format_value`); a whole one below 10^15, as
  /// most elements of most arrays are, is written digit by digit, which costs a tenth of
  /// the formatting: a step shows up to a thousand elements. Any other is looked up in
  /// `recentNumbers` first.
  private func appendNumber(_ value: Double) {
    if value.rounded(.towardZero) == value, value.magnitude < 1e15, !(value == 0 && value.sign == .minus) {
      appendWhole(Int64(value))
      return
    }
    if !value.isFinite { json.append(UInt8(ascii: "\"")) }
    recentNumbers.append(value, to: &json)
    if !value.isFinite { json.append(UInt8(ascii: "\"")) }
  }

  private func appendWhole(_ value: Int64) {
    if value < 0 { json.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var divisor: UInt64 = 1
    while magnitude / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
      json.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
      magnitude %= divisor
      divisor /= 10
    }
  }

  /// Names are the language's identifiers (letters, digits, `_`), which need no escaping.
  private func appendString(_ text: String) {
    json.append(UInt8(ascii: "\""))
    json += text.utf8
    json.append(UInt8(ascii: "\""))
  }

  private func append(_ text: String) { json += text.utf8 }
}

/// The text of the numbers formatted last, by bit pattern, in a table of fixed slots. A
/// step repeats most values of the step before (every frame but the innermost is as it
/// was), and formatting a fraction (`ks_format_value`: `snprintf`, then `strtod` to check)
/// costs far more than finding it here.
struct RecentNumbers {
  private static let slotCount = 512
  /// Room for the longest text `ks_format_value` writes, `-2.2250738585072014e-308`.
  private static let slotBytes = 32
  private var keys = [UInt64](repeating: 0, count: slotCount)
  /// 0 for an empty slot: no text is empty.
  private var lengths = [UInt8](repeating: 0, count: slotCount)
  private var texts = [UInt8](repeating: 0, count: slotCount * slotBytes)

  /// Appends the text of `value` to `output`.
  mutating func append(_ value: Double, to output: inout [UInt8]) {
    let bits = value.bitPattern
    let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 55) % Self.slotCount
    let start = slot * Self.slotBytes
    if keys[slot] != bits || lengths[slot] == 0 {
      let length = texts.withUnsafeMutableBufferPointer { texts in
        texts.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: Self.slotBytes) {
          Int(ks_format_value(value, $0, Self.slotBytes))
        }
      }
      guard length > 0, length < Self.slotBytes else {
        var wide = [CChar](repeating: 0, count: 64)
        let count = Int(ks_format_value(value, &wide, wide.count))
        output += wide[..<count].map { UInt8(bitPattern: $0) }
        lengths[slot] = 0
        return
      }
      keys[slot] = bits
      lengths[slot] = UInt8(length)
    }
    output += texts[start..<start + Int(lengths[slot])]
  }
}
