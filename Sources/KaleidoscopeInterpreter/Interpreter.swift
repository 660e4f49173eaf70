import KaleidoscopeFrontend
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reference interpreter: a direct evaluator of a checked program with exactly the
/// semantics of SPEC §3, independent of LLVM. It is the oracle the compiled engines are
/// tested against, and `run --tier interp`.
///
/// Every body's locals live in one frame of `slots` (parameters first, as sema numbers
/// them); a call pushes a frame. Evaluation recurses on the syntax tree, which the parser
/// bounds in depth, and on calls, which the language's call depth limit bounds
/// (`KS_CALL_DEPTH_LIMIT`, the same in every engine), with a stack check behind it: a
/// runaway recursion is a located error, never a crash. Arrays are in
/// `Interpreter+Arrays.swift`.
public final class Interpreter {
  /// The stack the interpreter runs on (every engine's: `KS_STACK_SIZE`), and how much of it
  /// is kept free: a body's own nesting (at most `Parser.defaultNestingLimit` levels) must
  /// fit in the reserve.
  public static let stackSize = Int(KS_STACK_SIZE)
  static let stackReserve = 64 << 20

  let program: CheckedProgram
  let tree: SyntaxTree
  private let host: InterpreterHost
  private let forSemantics: ForSemantics
  private let printValues: Bool
  /// The definition of each function, by `FunctionID.index` (nil for externs).
  private let definitions: [Frame?]
  /// Each extern called so far, as its host resolved it, by `FunctionID.index`.
  private var externals: [ExternalFunction?]
  /// The index in `program.bodies` of the body being evaluated.
  var currentBody = 0
  /// The frames' locals. An array local holds its array's handle (`ArrayHandle`).
  var slots = SlotStack()
  var base = 0
  /// How many calls of the program's functions are in progress (0 at the top level).
  var callDepth: Int32 = 0
  /// The globals, where compiled code finds them too (`CompiledCode`).
  public let globals: GlobalCells
  /// Each array global's array, by `GlobalID.index` (the empty array until declared).
  var globalArrays: [ArrayHandle]
  let isArrayGlobal: [Bool]
  /// Machine code to call instead of interpreting, when running in tiers.
  public var compiledCode: CompiledCode?
  /// Calls of each function so far, while it has no machine code.
  var callCounts: [Int]
  /// Loop iterations run here rather than in machine code, over all loops (`run --stats`).
  public internal(set) var interpretedLoopIterations = 0
  /// Whether each parameter of each function is an array, by `FunctionID.index`.
  let parameterIsArray: [[Bool]]
  /// Whether each function is an extern whose errors and faults name its call
  /// (`HostLibrary.reportsAtCallSite`), by `FunctionID.index`.
  private let reportsAtCallSite: [Bool]
  /// "FILE:LINE:COL" of each such call made so far, by call node, for the runtime.
  var callSites: [ExprID: UnsafeMutablePointer<CChar>] = [:]
  /// The arguments of a call into machine code, as its cells.
  var nativeArguments: [Double] = []
  /// The live arrays: the empty array, then the globals' and, above them, a stack of those
  /// of local `var`s and of literals passed to calls, freed as their scope ends.
  var arrays: [ArrayStorage] = [ArrayStorage.makeEmpty()]
  /// Where the arrays this interpreter made start, above the empty one and those of
  /// borrowed globals.
  private var ownedArraysStart = 1
  private var stackLimit: UInt = 0
  /// Reused storage for walking chains of binary operators without recursion.
  private var spine: [ExprID] = []
  /// What watches the run (`Interpreter+Debugging.swift`), set before it starts; without
  /// one, the run pays one test of a byte (`isObserved`) per node.
  public var debugObserver: (any DebugObserver)? {
    didSet { (isObserved, stepPoints) = (debugObserver != nil, debugObserver != nil ? computeStepPoints() : []) }
  }
  private var isObserved = false
  var stepPoints: [Bool] = []
  var debugFrames: [DebugFrameState] = []
  /// The events besides steps the observer wants now.
  public var reportedEvents: DebugEvents = [.calls, .returns]

  /// `globals`, when given, are cells the REPL's compiled code keeps (one per global of the
  /// program, holding values already): the interpreter reads and writes them but runs no
  /// declaration, and the arrays they hold stay theirs.
  public init(
    program: CheckedProgram, host: InterpreterHost, forSemantics: ForSemantics = .current, printValues: Bool = true,
    globals: GlobalCells? = nil
  ) {
    self.program = program
    self.tree = program.tree
    self.host = host
    self.forSemantics = forSemantics
    self.printValues = printValues
    var definitions = [Frame?](repeating: nil, count: program.functions.symbols.count)
    for (index, body) in program.bodies.enumerated() {
      if let function = body.function { definitions[Int(function.index)] = Frame(body, index: index) }
    }
    self.definitions = definitions
    externals = [ExternalFunction?](repeating: nil, count: definitions.count)
    self.globals = globals ?? GlobalCells(count: program.globals.symbols.count)
    globalArrays = [ArrayHandle](repeating: .empty, count: program.globals.symbols.count)
    isArrayGlobal = program.globals.symbols.map { $0.kind == .array }
    callCounts = [Int](repeating: 0, count: program.functions.symbols.count)
    parameterIsArray = program.functions.symbols.map { $0.prototype.parameters.map { $0.kind == .array } }
    reportsAtCallSite = program.functions.symbols.map { $0.origin == .external && HostLibrary.reportsAtCallSite($0.spelling) }
    for id in program.globals.ids where isArrayGlobal[Int(id.index)] {
      if self.globals.isBorrowed {
        guard let storage = self.globals.array(id) else { continue }
        arrays.append(storage)
        globalArrays[Int(id.index)] = ArrayHandle(index: arrays.count - 1)
      } else {
        self.globals.setArray(id, to: arrays[0])
      }
    }
    ownedArraysStart = arrays.count
  }

  /// Whether the arrays still alive when the interpreter goes (the globals') are left to the
  /// end of the process, as compiled code leaves them, instead of freed: set when the
  /// process ends right after the run (`run`), where unmapping a large array page by page
  /// would only delay the exit that frees it anyway.
  public var leavesArraysToProcessExit = false

  deinit {
    guard !leavesArraysToProcessExit else { return }
    arrays[0].free()
    for storage in arrays[ownedArraysStart...] { storage.free() }
    for site in callSites.values { free(site) }
  }

  /// Runs the top-level expressions and the declarations of globals in source order, on a
  /// thread of its own with `stackSize` bytes of stack.
  public func run() throws(InterpreterError) {
    try LargeStack.run(size: Self.stackSize) { () throws(InterpreterError) in
      // Compiled code may fault on this thread: the runtime's handler needs its alternate
      // stack here.
      ks_runtime_init()
      stackLimit = Self.stackPointer() - UInt(Self.stackSize - Self.stackReserve)
      for (index, body) in program.bodies.enumerated() where body.function == nil {
        compiledCode?.starting(topLevel: index)
        let value = try evaluateBody(Frame(body, index: index))
        if printValues, case .topLevel = body.kind { host.printValue(value) }
      }
    }
  }

  /// Evaluates the top-level expression at `index` in `program.bodies` on this thread, which
  /// has at least `stackSize` bytes of stack left (the REPL's evaluation thread), and prints
  /// its value.
  public func evaluateTopLevel(_ index: Int, stackSize: Int) throws(InterpreterError) {
    precondition(stackSize > Self.stackReserve, "the interpreter needs more stack than its reserve")
    stackLimit = Self.stackPointer() - UInt(stackSize - Self.stackReserve)
    let value = try evaluateBody(Frame(program.bodies[index], index: index))
    if printValues { host.printValue(value) }
  }

  /// Where the machine stack is now (see `ks_stack_address`).
  private static func stackPointer() -> UInt {
    UInt(bitPattern: ks_stack_address())
  }

  // MARK: - Bodies and calls

  /// What running a body needs, without the reference-counted parts of `CheckedBody` that
  /// would be retained and released at every call.
  struct Frame {
    /// The root expression.
    var root: ExprID
    /// Parameters and locals.
    var size: Int
    /// The body's index in `program.bodies`.
    var index: Int

    init(_ body: CheckedBody, index: Int) {
      root = body.body
      size = body.locals.count
      self.index = index
    }
  }

  /// Runs a top-level body.
  private func evaluateBody(_ frame: Frame) throws(InterpreterError) -> Double {
    try evaluate(frame, argumentBase: slots.count)
  }

  /// Runs a body whose arguments were pushed on `slots` from `argumentBase`; pops them.
  private func evaluate(_ frame: Frame, argumentBase: Int) throws(InterpreterError) -> Double {
    let (callerBase, callerBody) = (base, currentBody)
    base = argumentBase
    currentBody = frame.index
    slots.appendZeros(frame.size - (slots.count - argumentBase))
    defer {
      slots.removeLast(slots.count - base)
      base = callerBase
      currentBody = callerBody
    }
    guard _slowPath(isObserved) else { return try evaluate(frame.root) }
    try enterDebugFrame(frame)
    defer { leaveDebugFrame() }
    return try evaluate(frame.root)
  }

  /// Calls `function`, at `site`, with the arguments pushed on `slots` from `argumentBase`
  /// (arguments go straight into the callee's frame: a call allocates nothing but the arrays
  /// of literal arguments).
  private func call(
    _ function: FunctionID, argumentBase: Int, site: ExprID
  ) throws(InterpreterError) -> Double {
    guard Self.stackPointer() > stackLimit else { throw fault(InterpreterError.stackOverflow) }
    if let definition = definitions[Int(function.index)] {
      try enterCall(at: site)
      defer { callDepth -= 1 }
      if let compiledCode, let entry = try machineCode(for: function, in: compiledCode, site: site) {
        return try callMachineCode(entry, function, argumentBase: argumentBase, in: compiledCode)
      }
      return try evaluate(definition, argumentBase: argumentBase)
    }
    // A function an earlier REPL input defined has only its machine code.
    if let compiledCode, let entry = ks_tier_load_entry(compiledCode.entries + Int(function.index)) {
      try enterCall(at: site)
      defer { callDepth -= 1 }
      return try callMachineCode(
        unsafeBitCast(entry, to: NativeEntry.self), function, argumentBase: argumentBase, in: compiledCode)
    }
    return try callExternal(function, argumentBase: argumentBase, site: site)
  }

  /// Calls an extern, at `site`, with the arguments pushed on `slots` from `argumentBase`.
  private func callExternal(_ function: FunctionID, argumentBase: Int, site: ExprID) throws(InterpreterError) -> Double {
    if externals[Int(function.index)] == nil {
      let name = program.functions[function].spelling
      guard let external = host.external(named: name) else { throw unresolvedExternError(name, at: site) }
      externals[Int(function.index)] = external
    }
    guard reportsAtCallSite[Int(function.index)] else {
      return try slots.popValues(from: argumentBase, into: externals[Int(function.index)]!)
    }
    ks_set_call_site(callSite(of: site))
    defer { ks_set_call_site(nil) }
    return try slots.popValues(from: argumentBase, into: externals[Int(function.index)]!)
  }

  /// Calls a user-defined unary operator.
  private func call(
    _ function: FunctionID, _ operand: Double, site: ExprID
  ) throws(InterpreterError) -> Double {
    let argumentBase = slots.count
    slots.append(operand)
    return try call(function, argumentBase: argumentBase, site: site)
  }

  /// Calls a user-defined binary operator.
  @inline(never)
  private func callOperator(
    _ function: FunctionID, _ lhs: Double, _ rhs: Double, site: ExprID
  ) throws(InterpreterError) -> Double {
    let argumentBase = slots.count
    slots.append(lhs)
    slots.append(rhs)
    return try call(function, argumentBase: argumentBase, site: site)
  }

  // MARK: - Expressions

  func evaluate(_ id: ExprID) throws(InterpreterError) -> Double {
    if _slowPath(isObserved) { try debugStep(id) }
    switch tree[id] {
    case .number(let value):
      return value
    case .variable:
      return read(program.variable(of: id))
    case .unary(_, let operand):
      let value = try evaluate(operand)
      if let callee = program.callee(of: id) { return try call(callee, value, site: id) }
      return -value
    case .binary:
      return try evaluateChain(id)
    case .assign(let target, let valueExpr):
      let value = try evaluate(valueExpr)
      write(value, to: program.variable(of: target))
      return value
    case .call(_, let list):
      // Each argument is pushed as soon as it is evaluated; calls inside a later argument
      // push their frames above it and pop them before returning. Arrays made for literal
      // arguments live until the call returns.
      let argumentBase = slots.count
      let arrayMark = arrays.count
      defer { popArrays(to: arrayMark) }
      for position in 0..<list.count {
        let value = try evaluate(tree.argument(position, of: list))
        slots.append(value)
      }
      return try call(program.callee(of: id)!, argumentBase: argumentBase, site: id)
    case .ifElse(let condition, let then, let otherwise):
      return try Self.isTrue(try evaluate(condition)) ? evaluate(then) : evaluate(otherwise)
    case .loop(let index):
      try evaluateLoop(tree.loop(index), node: id)
      return 0
    case .varIn(let index):
      let varIn = tree.varIn(index)
      let arrayMark = arrays.count
      defer { popArrays(to: arrayMark) }
      // By position, each binding and local read alone: slices held across the
      // evaluation would keep the tables retained.
      for position in varIn.bindings.indices {
        let (binding, local) = (tree.bindings(varIn.bindings)[position], program.bindingLocals(of: varIn)[position])
        slots[base + Int(local.index)] = try value(of: binding)
      }
      return try evaluate(varIn.body)
    case .element(let array, let index):
      let storage = arrays[ArrayHandle(read(program.variable(of: id))).index]
      let position = try checkedIndex(try evaluate(index), in: storage, of: array, at: id)
      if _slowPath(isObserved) { reportAccess(of: array, at: position, isWrite: false) }
      return storage[position]
    case .storeElement(let array, let index, let valueExpr):
      let storage = arrays[ArrayHandle(read(program.variable(of: id))).index]
      let indexValue = try evaluate(index)
      let value = try evaluate(valueExpr)
      let position = try checkedIndex(indexValue, in: storage, of: array, at: id)
      storage[position] = value
      if _slowPath(isObserved) { reportAccess(of: array, at: position, isWrite: true) }
      return value
    case .length:
      return Double(arrays[ArrayHandle(read(program.variable(of: id))).index].count)
    case .arrayLiteral, .string:
      // An argument for an array parameter: a fresh array, freed when the call returns.
      return try makeArray(from: id).slotValue
    case .globalDeclaration(let index):
      try declareGlobals(tree.globalDeclaration(index))
      return 0
    case .error:
      preconditionFailure("a program with errors is never run")
    }
  }

  /// Runs a declaration of globals. Rare, and kept out of `evaluate(_:)`, whose frame every
  /// node's evaluation pays for.
  @inline(never)
  private func declareGlobals(_ declaration: Bindings) throws(InterpreterError) {
    precondition(!globals.isBorrowed, "the REPL runs declarations in compiled code")
    for binding in tree.bindings(declaration) {
      guard let global = program.globals.lookup(binding.name) else { continue }
      let holdsIntegers = compiledCode?.keepsIntegers(in: global) ?? false
      declare(global, value: try value(of: binding, holdsIntegers: holdsIntegers, apart: true))
    }
  }

  /// The value of an optional part (a loop's step, an initialiser), `absent` when missing.
  func evaluate(_ id: ExprID?, or absent: Double) throws(InterpreterError) -> Double {
    guard let id else { return absent }
    return try evaluate(id)
  }

  /// `a op b op c ...`, left to right, walking the left spine instead of recursing on it.
  private func evaluateChain(_ id: ExprID) throws(InterpreterError) -> Double {
    // Most chains are one operation (`n < 3`, `x - 1`): no spine needed.
    if case .binary(let op, let lhs, let rhs) = tree[id], !isBinary(lhs) {
      let left = try evaluate(lhs)
      return try apply(op, left, try evaluate(rhs), at: id)
    }
    let start = spine.count
    defer { spine.removeLast(spine.count - start) }
    var current = id
    while case .binary(_, let lhs, _) = tree[current] {
      spine.append(current)
      current = lhs
    }
    var value = try evaluate(current)
    while spine.count > start {
      let node = spine.removeLast()
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      let right = try evaluate(rhs)
      value = try apply(op, value, right, at: node)
    }
    return value
  }

  @inline(__always)
  private func isBinary(_ id: ExprID) -> Bool {
    if case .binary = tree[id] { return true }
    return false
  }

  /// Applies a binary operator: inlined into the chain's walk, with a user-defined
  /// operator's call kept out of line so that the arithmetic stays a few instructions.
  @inline(__always)
  private func apply(
    _ op: UInt8, _ lhs: Double, _ rhs: Double, at id: ExprID
  ) throws(InterpreterError) -> Double {
    if let callee = program.callee(of: id) { return try callOperator(callee, lhs, rhs, site: id) }
    switch op {
    case UInt8(ascii: "+"): return lhs + rhs
    case UInt8(ascii: "-"): return lhs - rhs
    case UInt8(ascii: "*"): return lhs * rhs
    case UInt8(ascii: "/"): return lhs / rhs
    // `fcmp ult`: less than, or unordered (either side NaN).
    case UInt8(ascii: "<"): return (lhs < rhs || lhs.isNaN || rhs.isNaN) ? 1 : 0
    default: preconditionFailure("sema resolves every other operator to a function")
    }
  }

  /// A condition holds when it is not 0.0 and not NaN (`fcmp one c, 0.0`).
  private static func isTrue(_ value: Double) -> Bool {
    !value.isNaN && value != 0
  }

  /// A loop, with exactly the code generator's order of evaluation. At the top of an
  /// iteration, now and then, the loop may go on in machine code (tiers), whatever its kind.
  private func evaluateLoop(_ loop: Loop, node: ExprID) throws(InterpreterError) {
    switch loop {
    case .forLoop(let parts):
      slots[base + Int(program.loopVariable(of: node).index)] = try evaluate(parts.start)
    case .whileLoop:
      break
    }
    var iterations = 0
    defer { interpretedLoopIterations += iterations }
    let reportInterval = compiledCode?.loopReportInterval ?? Int.max
    let handovers = compiledCode?.loopsHandedOver
    var handoversSeen = handovers?.pointee ?? 0
    var awaitingCode = false
    while true {
      if let compiledCode, awaitingCode || iterations % reportInterval == 0 || handovers?.pointee != handoversSeen {
        if let entry = compiledCode.loop(node, of: currentBody, iterations: iterations) {
          if runInMachineCode(entry) { return }
          compiledCode.loopMissed(node, of: currentBody)
        }
        handoversSeen = handovers?.pointee ?? 0
        awaitingCode = compiledCode.awaitsCode(forLoop: node)
      }
      guard try iterate(loop, node: node) else {
        compiledCode?.loopEnded(node, iterations: iterations)
        return
      }
      iterations += 1
    }
  }

  /// Runs one iteration of `loop`; false when the loop has ended instead.
  @inline(__always)
  private func iterate(_ loop: Loop, node: ExprID) throws(InterpreterError) -> Bool {
    switch loop {
    case .forLoop(let parts):
      // Both `for` loops of SPEC §3. The step is evaluated after the body and the variable
      // read after the step, as the generated code does.
      let variable = base + Int(program.loopVariable(of: node).index)
      switch forSemantics {
      case .current:
        guard Self.isTrue(try evaluate(parts.end)) else { return false }
        _ = try evaluate(parts.body)
        let step = try evaluate(parts.step, or: 1)
        slots[variable] = slots[variable] + step
        return true
      case .legacy:
        _ = try evaluate(parts.body)
        let step = try evaluate(parts.step, or: 1)
        let end = try evaluate(parts.end)
        slots[variable] = slots[variable] + step
        return Self.isTrue(end)
      }
    case .whileLoop(let parts):
      guard Self.isTrue(try evaluate(parts.condition)) else { return false }
      _ = try evaluate(parts.body)
      return true
    }
  }
}
