import KaleidoscopeFrontend

/// What watches a run from inside the interpreter: a debugger (`kaleidoscope dap`) or a
/// tracer. The interpreter tells it where the run is and lets it look at the frames; it may
/// block (a stop) before it returns.
public protocol DebugObserver: AnyObject {
  /// The run reached `node`: a step point (`Interpreter.isStepPoint`), a body's start
  /// (`.call`, at its root) or its end (`.return`). Throwing ends the run with that error.
  func reached(_ event: DebugEvent, at node: ExprID, in interpreter: Interpreter) throws(InterpreterError)
  /// The run is about to end with `error`, raised at the innermost frame's node; the frames
  /// are still there to be looked at.
  func faulted(_ error: InterpreterError, in interpreter: Interpreter)
  /// The run read (or, with `isWrite`, wrote) element `index` of the array the variable
  /// `array` names, as seen from the innermost frame.
  func accessed(_ array: String, index: Int, isWrite: Bool)
}

extension DebugObserver {
  /// Most observers do not follow element accesses.
  public func accessed(_ array: String, index: Int, isWrite: Bool) {}
}

/// Why the interpreter calls its observer.
public enum DebugEvent: Sendable {
  case step
  case call
  case `return`
}

/// Which events besides steps an observer is told of (`Interpreter.reportedEvents`): it may
/// change them as it goes, so that a run it watches only for breakpoints pays nothing more
/// at each call.
public struct DebugEvents: OptionSet, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let calls = DebugEvents(rawValue: 1)
  public static let returns = DebugEvents(rawValue: 2)
}

/// A frame of the run, as a debugger shows it.
public struct DebugFrame: Sendable {
  /// The function's name, or `top level` / `globals` for a top-level expression or a
  /// declaration of globals.
  public let name: String
  /// The body's index in `program.bodies`.
  public let body: Int
  /// The step point the frame is at (its root until it reaches one).
  public let node: ExprID
  let base: Int
}

/// An array as a debugger refers to it while the run is stopped.
public struct DebugArray: Sendable, Hashable {
  let handle: Int
  public let count: Int
}

/// A variable's value, as a debugger shows it.
public enum DebugValue: Sendable {
  case number(Double)
  case array(DebugArray)
}

/// The interpreter's record of a frame while an observer is attached.
struct DebugFrameState {
  var body: Int
  var base: Int
  var node: ExprID
}

extension Interpreter {
  /// Marks the step points: a body's root, each node that starts a line its parent does not
  /// start, and every loop body and branch of an `if`, so that a debugger stops at each line
  /// and at each iteration of a one-line loop.
  func computeStepPoints() -> [Bool] {
    var points = [Bool](repeating: false, count: tree.exprCount)
    var work: [(node: SyntaxNode, line: Int)] = []
    for body in program.bodies {
      points[Int(body.body.index)] = true
      work.append((SyntaxNode(.expr(body.body)), -1))
    }
    while let (node, parentLine) = work.popLast() {
      var line = parentLine
      if case .expr(let id) = node.reference {
        line = program.file.location(of: tree.start(of: id)).line
        if line != parentLine || ["body", "then", "else"].contains(node.role ?? "") {
          points[Int(id.index)] = true
        }
      }
      for child in tree.children(of: node) { work.append((child, line)) }
    }
    return points
  }

  /// Whether the run may stop at `node` (`computeStepPoints`).
  public func isStepPoint(_ node: ExprID) -> Bool {
    Int(node.index) < stepPoints.count && stepPoints[Int(node.index)]
  }

  /// The lines that have a step point: where a line breakpoint can be.
  public var linesWithCode: [Int] {
    var lines = Set<Int>()
    for index in stepPoints.indices where stepPoints[index] {
      lines.insert(program.file.location(of: tree.start(of: ExprID(index: Int32(index)))).line)
    }
    return lines.sorted()
  }

  @inline(never)
  func debugStep(_ node: ExprID) throws(InterpreterError) {
    guard let debugObserver, stepPoints[Int(node.index)], !debugFrames.isEmpty else { return }
    debugFrames[debugFrames.count - 1].node = node
    try debugObserver.reached(.step, at: node, in: self)
  }

  @inline(never)
  func enterDebugFrame(_ frame: Frame) throws(InterpreterError) {
    debugFrames.append(DebugFrameState(body: frame.index, base: base, node: frame.root))
    if reportedEvents.contains(.calls) { try debugObserver?.reached(.call, at: frame.root, in: self) }
  }

  @inline(never)
  func leaveDebugFrame() {
    if reportedEvents.contains(.returns), let last = debugFrames.last {
      try? debugObserver?.reached(.return, at: last.node, in: self)
    }
    debugFrames.removeLast()
  }

  /// Tells the observer that the run read or wrote element `position` of `array`.
  @inline(never)
  func reportAccess(of array: Name, at position: Int, isWrite: Bool) {
    debugObserver?.accessed(tree.text(array), index: position, isWrite: isWrite)
  }

  /// Tells the observer of an error about to end the run, and returns it.
  @inline(never)
  func fault(_ error: InterpreterError) -> InterpreterError {
    debugObserver?.faulted(error, in: self)
    return error
  }

  /// How many frames the run has (the length of `debugStack`, without making it).
  public var debugDepth: Int { debugFrames.count }

  /// The body the innermost frame runs, an index in `program.bodies`.
  public var innermostBody: Int? { debugFrames.last?.body }

  /// How many expression nodes the program has: `ExprID`s run below it.
  public var nodeCount: Int { tree.exprCount }

  /// The frames of the run, outermost first.
  public var debugStack: [DebugFrame] {
    debugFrames.map { state in
      let name =
        switch program.bodies[state.body].kind {
        case .function(let id): program.functions[id].spelling
        case .topLevel: "top level"
        case .globalDeclaration: "globals"
        }
      return DebugFrame(name: name, body: state.body, node: state.node, base: state.base)
    }
  }

  /// Where `node` starts: its line and column (1-based).
  public func location(of node: ExprID) -> SourceLocation {
    program.file.location(of: tree.start(of: node))
  }

  /// Where the source of `node` and everything under it starts and ends (the end just past
  /// its last token), for a stepper to highlight.
  public func extent(of node: ExprID) -> (start: SourceLocation, end: SourceLocation) {
    var range = tree.range(of: node)
    var work = [SyntaxNode(.expr(node))]
    while let next = work.popLast() {
      if case .expr(let id) = next.reference {
        range = range.union(tree.range(of: id))
        range.start = min(range.start, tree.start(of: id))
      }
      work += tree.children(of: next)
    }
    return (program.file.location(of: range.start), program.file.location(of: range.end))
  }

  /// The text of source line `line` (1-based), without its line break.
  public func sourceLine(_ line: Int) -> String {
    String(decoding: program.file.lineText(line), as: UTF8.self)
  }

  /// How many of a frame's locals are its parameters (they come first).
  public func parameterCount(of frame: DebugFrame) -> Int {
    program.bodies[frame.body].locals.prefix { $0.kind == .parameter }.count
  }

  /// The name of the function a frame runs, or nil for top-level code.
  public func functionName(of frame: DebugFrame) -> String? {
    program.bodies[frame.body].function.map { program.functions[$0].spelling }
  }

  /// The frame's locals in order (parameters first), with their values.
  public func locals(of frame: DebugFrame) -> [(name: String, value: DebugValue)] {
    program.bodies[frame.body].locals.enumerated().map { slot, local in
      let raw = slots[frame.base + slot]
      return (tree.text(local.name), local.valueKind == .array ? debugValue(ofArray: raw) : .number(raw))
    }
  }

  /// The program's globals, with their values.
  public var globalValues: [(name: String, value: DebugValue)] {
    program.globals.ids.map { id in
      let name = program.globals[id].spelling
      if isArrayGlobal[Int(id.index)] { return (name, debugValue(ofArray: globalArrays[Int(id.index)].slotValue)) }
      return (name, .number(globals[number: id]))
    }
  }

  private func debugValue(ofArray raw: Double) -> DebugValue {
    let handle = ArrayHandle(raw)
    guard handle.index >= 0, handle.index < arrays.count else { return .array(DebugArray(handle: 0, count: 0)) }
    return .array(DebugArray(handle: handle.index, count: arrays[handle.index].count))
  }

  /// Elements `start..<start + count` of `array` (clipped to the array).
  public func elements(of array: DebugArray, start: Int, count: Int) -> [Double] {
    guard array.handle < arrays.count else { return [] }
    let storage = arrays[array.handle]
    let lower = max(0, min(start, storage.count))
    let upper = max(lower, min(storage.count, lower + max(0, count)))
    return (lower..<upper).map { storage[$0] }
  }

  /// Sets the number local `name` of `frame`, the number global `name`, or an element;
  /// false when there is no such number.
  public func setLocal(_ name: String, of frame: DebugFrame, to value: Double) -> Bool {
    for (slot, local) in program.bodies[frame.body].locals.enumerated().reversed()
    where tree.text(local.name) == name && local.valueKind != .array {
      slots[frame.base + slot] = value
      return true
    }
    return false
  }

  public func setGlobal(_ name: String, to value: Double) -> Bool {
    guard let id = program.global(named: name),
      !isArrayGlobal[Int(id.index)]
    else { return false }
    globals[number: id] = value
    return true
  }

  public func setElement(_ index: Int, of array: DebugArray, to value: Double) -> Bool {
    guard array.handle < arrays.count, index >= 0, index < arrays[array.handle].count else { return false }
    // An array of integers holds only what the proof behind it allows, and a debugger's
    // interpreter never makes one (it runs without compiled code).
    guard !arrays[array.handle].holdsIntegers else { return false }
    arrays[array.handle][index] = value
    return true
  }
}
