import CLLVM
import KaleidoscopeFrontend

/// Loop counters as integers. A `for` loop whose counter is provably a whole number below
/// 2^52 (`integerCounterBits`) keeps it in an `i64` as well as in its double, and an
/// element's index made only of such counters, whole literals, globals and parameters known
/// whole and lengths, with `+`, `-` and `*` (`ExactArithmetic`), is computed in integers:
/// the very value the doubles would have, since every intermediate stays below 2^53, but
/// with no conversion and no fraction test, and in a form LLVM can reason about. The
/// bounds comparison stays, so memory safety never depends on this.
extension IRGenerator {
  /// The most bits an integer index may need: below 2^53, a double holds every whole number.
  static let exactBits = ExactArithmetic.exactBits

  /// What is exact where the builder is: the counters active here, the integral locals,
  /// the parameters known whole, and the globals known whole.
  var exactArithmetic: ExactArithmetic {
    let known = indices.globalFacts?.stable ?? []
    let facts = indices.current
    var arithmetic = ExactArithmetic(
      program: program, localBits: { [activeCounters] in activeCounters[$0.index] },
      globalBits: { Int($0.index) < known.count ? known[Int($0.index)]?.bits : nil })
    arithmetic.localMayBeNegativeZero = {
      facts.integralLocals.contains($0.index) && !facts.integralLocalsNeverNegativeZero.contains($0.index)
    }
    return arithmetic
  }

  /// The bits of the magnitude of the counter of `loop` (its local: `variable`) when it may
  /// live as an integer (`ExactArithmetic.counterBits`).
  func integerCounterBits(_ loop: ForLoop, variable: LocalID) -> Int? {
    guard options.forSemantics == .current, integerLocals[Int(variable.index)] != nil else { return nil }
    return exactArithmetic.counterBits(of: loop, variable: variable)
  }

  /// The number locals fixed throughout the loop at `node` that it counts with: the
  /// parameters of `body` and the `var`s around the loop, when nothing in the body assigns
  /// them, read in a loop's test or an element's index under `node`
  /// (`localsCountedWith`). In the rest of a running loop each holds, throughout, the
  /// value it had when the loop started.
  func fixedNumberLocals(around node: ExprID, of body: CheckedBody) -> [LocalID] {
    guard options.forSemantics == .current else { return [] }
    let arity = body.function.map { program.functions[$0].arity } ?? 0
    var candidates = (0..<arity).map { LocalID(index: Int32($0)) }
    _ = tree.contains(SyntaxNode(.expr(body.body))) { candidate in
      guard case .expr(let id) = candidate.reference, case .varIn(let index) = tree[id] else { return false }
      let varIn = tree.varIn(index)
      if tree.contains(node, under: varIn.body) { candidates += program.bindingLocals(of: varIn) }
      return false
    }
    let counted = localsCountedWith(under: node)
    return candidates.filter { local in
      body.locals[Int(local.index)].valueKind == .number && counted.contains(local)
        && !assigns(local, under: body.body)
    }
  }

  /// The locals read under `root` where an integer copy can serve: in a loop's test
  /// (`i < n` then compares integers, and LLVM can count the loop) or in an element's
  /// index. A number read only in arithmetic, a weight, gains nothing from being assumed
  /// whole, and a frame where it is not would miss the loop's code for nothing.
  private func localsCountedWith(under root: ExprID) -> Set<LocalID> {
    let (tested, indexing) = WholeIndexAnalysis.localsCompared(under: root, in: program)
    return Set(tested.union(indexing).map { LocalID(index: $0) })
  }

  /// In the entry block of the rest of a running loop: goes on when each of `fixed` (see
  /// `fixedNumberLocals`) holds a whole number below 2^52 in magnitude, with its integer copy
  /// made, so that a bound `i < n` counts as a literal's would; else returns 0 (the code was
  /// made for other frames: tiers then compile the loop without this assumption).
  func assumeWhole(_ fixed: [LocalID], of body: CheckedBody, in function: LLVMValueRef) {
    guard !fixed.isEmpty else { return }
    let b = builder.reference
    var holds = LLVMConstInt(LLVMInt1TypeInContext(context), 1, 0)!
    var copies: [(LocalID, LLVMValueRef)] = []
    for local in fixed {
      let value = loadNumber(from: locals[Int(local.index)])
      let magnitude = callIntrinsic("llvm.fabs", overloads: [double], [value], "")
      let small = LLVMBuildFCmp(b, LLVMRealOLT, magnitude, LLVMConstReal(double, 0x1p52), "")!
      // Below 2^52 the conversion is exact for a whole number; above, `select` keeps poison out.
      let integer = LLVMBuildFPToSI(b, LLVMBuildSelect(b, small, value, LLVMConstReal(double, 0), ""), int64, "")!
      let whole = LLVMBuildFCmp(b, LLVMRealOEQ, LLVMBuildSIToFP(b, integer, double, ""), value, "")!
      holds = LLVMBuildAnd(b, holds, LLVMBuildAnd(b, small, whole, "")!, "")!
      let copy = LLVMBuildAlloca(b, int64, tree.text(body.locals[Int(local.index)].name) + ".int")!
      copies.append((local, copy))
      LLVMBuildStore(b, integer, copy)
    }
    declineFrame(unless: holds, assumed: "assumedwhole", otherwise: "notwhole", in: function)
    for (local, copy) in copies {
      integerLocals[Int(local.index)] = copy
      activeCounters[local.index] = 52
    }
  }

  /// Whether anything under `root` assigns the local `variable`.
  private func assigns(_ variable: LocalID, under root: ExprID) -> Bool {
    ExactArithmetic.assigns(variable, under: root, in: program)
  }

  /// The bits of the magnitude of `id`'s value when it is a whole number computed exactly
  /// in integers (`ExactArithmetic`); nil otherwise.
  func integerBits(_ id: ExprID) -> Int? {
    exactArithmetic.integerBits(id)
  }

  /// `id`'s value as an `i64`; only for what `integerBits` accepts.
  func emitInteger(_ id: ExprID) -> LLVMValueRef {
    emitScaled(id, scale: 0)
  }

  /// `id`'s value as the double the program computes, with the same operations on doubles
  /// but the counters read from their integer copies (only for what `integerBits` accepts).
  /// It is exact, signed zeros included, since a counter never holds -0
  /// (`integerCounterBits`); and a counter's double that nothing else reads stays dead.
  func emitDouble(fromIntegers id: ExprID) -> LLVMValueRef {
    let b = builder.reference
    switch tree[id] {
    case .variable:
      guard case .local(let local) = program.variable(of: id) else { return emit(id) }
      return LLVMBuildSIToFP(b, LLVMBuildLoad2(b, int64, integerLocals[Int(local.index)]!, "counter"), double, "")!
    case .unary(_, let operand):
      return LLVMBuildFNeg(b, emitDouble(fromIntegers: operand), "")
    case .binary(let op, let lhs, let rhs):
      let left = emitDouble(fromIntegers: lhs)
      let right = emitDouble(fromIntegers: rhs)
      switch op {
      case UInt8(ascii: "+"): return LLVMBuildFAdd(b, left, right, "")
      case UInt8(ascii: "-"): return LLVMBuildFSub(b, left, right, "")
      case UInt8(ascii: "/"): return LLVMBuildFDiv(b, left, right, "")
      default: return LLVMBuildFMul(b, left, right, "")
      }
    case .number, .length, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string,
      .globalDeclaration, .error:
      return emit(id)
    }
  }

  /// Whether `id`, which `ExactArithmetic` knows, may evaluate to -0.
  func mayBeNegativeZero(_ id: ExprID) -> Bool {
    exactArithmetic.mayBeNegativeZero(id)
  }

  /// Starts the integer copy of a qualifying loop's counter from its double (a whole number
  /// at the top of an iteration, where on-stack replacement enters too); returns the step to
  /// add to it with the double's, or nil when the loop does not qualify.
  ///
  /// A loop entered from its start (`fromStart`) computes the copy from the start
  /// expression in integers, which it qualifies only by being: `j = i + 1` is then `i`'s
  /// integer plus one, which LLVM knows is at least 1 and can compare with `i`'s bounds,
  /// where a conversion of a double would tell it nothing (and `i`'s double may go unused).
  func startIntegerCounter(of loop: ForLoop, variable: LocalID, fromStart: Bool = false) -> Int64? {
    guard let bits = integerCounterBits(loop, variable: variable), let shadow = integerLocals[Int(variable.index)] else {
      return nil
    }
    let b = builder.reference
    let start =
      fromStart
      ? emitInteger(loop.start) : LLVMBuildFPToSI(b, loadNumber(from: locals[Int(variable.index)]), int64, "")!
    LLVMBuildStore(b, start, shadow)
    if !fromStart { assumeAtLeastItsStart(start, loop: loop) }
    activeCounters[variable.index] = bits
    if let step = loop.step, case .number(let value) = tree[step] { return Int64(value) }
    return 1
  }

  /// Tells LLVM that a counter entered at the top of an iteration (`counter`) is at least
  /// the loop's start, when the start reads only what the loop leaves alone: the counter
  /// only grows, and the start has the value it had when the loop began. The loop's code
  /// then knows an index counted from 0 is not negative, and checks its bound once before
  /// the loop, as it does when it enters at the start.
  private func assumeAtLeastItsStart(_ counter: LLVMValueRef, loop: ForLoop) {
    guard readsOnlyWhatItLeavesAlone(loop.start, loop: loop) else { return }
    let atLeast = LLVMBuildICmp(builder.reference, LLVMIntSGE, counter, emitInteger(loop.start), "")!
    _ = callIntrinsic("llvm.assume", overloads: [], [atLeast], "")
  }

  /// Tells LLVM that the counter of a loop around the rest of a running loop passes its
  /// loop's test (`counter < bound`), when the bound reads only what the loop leaves alone:
  /// the running loop is in that loop's body, which runs only once the test held, and
  /// neither side has changed since. With the start, an index made of both loops' counters
  /// (`a[(y + dy) * w + x]`) is known in range, and its checks go.
  private func assumePassesItsTest(_ loop: ForLoop) {
    guard case .binary(_, _, let bound) = tree[loop.end], readsOnlyWhatItLeavesAlone(bound, loop: loop) else { return }
    _ = callIntrinsic("llvm.assume", overloads: [], [integerLoopTest(loop)], "")
  }

  /// Whether `expression` (a part of `loop`'s header) keeps its value throughout the loop
  /// and can be computed in integers here: it reads only locals with integer copies that
  /// nothing in the loop assigns, and globals this module has as constants.
  private func readsOnlyWhatItLeavesAlone(_ expression: ExprID, loop: ForLoop) -> Bool {
    let parts = [loop.end, loop.body] + (loop.step.map { [$0] } ?? [])
    return !tree.contains(SyntaxNode(.expr(expression))) { node in
      guard case .expr(let id) = node.reference else { return true }
      switch tree[id] {
      case .number, .binary, .unary: return program.callee(of: id) != nil
      case .variable:
        switch program.variable(of: id) {
        case .global(let global): return fixedValue(of: global) == nil
        case .local(let local):
          guard activeCounters[local.index] != nil else { return true }
          return parts.contains { ExactArithmetic.assigns(local, under: $0, in: program) }
        }
      case .length, .assign, .call, .ifElse, .loop, .varIn, .element, .storeElement, .arrayLiteral, .string,
        .globalDeclaration, .error:
        return true
      }
    }
  }

  /// In the rest of a running loop (`emitLoopContinuation`), the integer copies of the
  /// counters of the loops around it in `body`, where they qualify: each holds the value it
  /// had at the top of its own iteration, a whole number, since nothing in its loop assigns
  /// it. An index such as `a[i * n + k]`, `i` an outer counter, then stays in integers as
  /// it does when the whole function is compiled.
  func startEnclosingCounters(of node: ExprID, in body: CheckedBody) {
    for outer in body.loops where outer != node {
      guard case .loop(let index) = tree[outer], case .forLoop(let parts) = tree.loop(index),
        tree.contains(node, under: parts.body)
      else { continue }
      let local = program.loopVariable(of: outer)
      guard startIntegerCounter(of: parts, variable: local) != nil else { continue }
      assumePassesItsTest(parts)
      counterRanges[local.index] = counterRangeInBody(of: parts)
      counterLoops[local.index] = parts
    }
  }

  /// The test of a loop whose counter lives as an integer (`counter < e`), in integers: both
  /// sides are exact whole numbers, never NaN, so it is the double comparison's answer, and
  /// LLVM sees a loop it can count.
  func integerLoopTest(_ loop: ForLoop) -> LLVMValueRef {
    guard case .binary(_, let counter, let bound) = tree[loop.end] else { preconditionFailure("checked by integerCounterBits") }
    return LLVMBuildICmp(builder.reference, LLVMIntSLT, emitInteger(counter), emitInteger(bound), "loopcond")!
  }

  /// Steps the integer copy of a counter with its double.
  func stepIntegerCounter(_ variable: LocalID, by step: Int64) {
    let b = builder.reference
    let shadow = integerLocals[Int(variable.index)]!
    let next = LLVMBuildAdd(b, LLVMBuildLoad2(b, int64, shadow, "counter")!, LLVMConstInt(int64, UInt64(step), 0), "")!
    LLVMBuildStore(b, next, shadow)
  }

  /// Keeps the integer copy of an integral local (`IndexFacts.integralLocals`), or of a
  /// stepped one (`steppedLocals`) given anything but a step, with the double `value` being
  /// stored into it (of `expression`; none: 0): computed in integers when the expression can
  /// be, else converted, which is exact since the value is known whole and below 2^53.
  /// Before the double is stored, so that the expression's integers read the old values its
  /// double did.
  func storeIntegral(_ value: LLVMValueRef, of expression: ExprID?, into variable: VariableReference) {
    guard case .local(let local) = variable,
      indices.current.integralLocals.contains(local.index) || indices.current.steppedLocals.contains(local.index),
      let copy = integerLocals[Int(local.index)]
    else { return }
    let b = builder.reference
    let integer: LLVMValueRef
    if let expression, integerBits(expression) != nil {
      integer = emitInteger(expression)
    } else if expression == nil {
      integer = LLVMConstInt(int64, 0, 0)!
    } else {
      integer = LLVMBuildFPToSI(b, value, int64, "")!
    }
    LLVMBuildStore(b, integer, copy)
  }

  /// A small integral local (`IndexFacts.smallIntegralLocals`: below 2^31, never -0) read
  /// as a double: its integer copy, converted from 32 bits. The conversion is exact, and
  /// LLVM knows it, so comparing the local with a whole constant becomes an integer
  /// comparison, and a chain of them a `switch` (an interpreter's dispatch on an opcode read
  /// from an array). A loop counter read this way made the matrix product slower: counters
  /// are read from 64 bits (`counterValue`).
  func smallIntegral(_ local: LocalID) -> LLVMValueRef? {
    guard indices.current.smallIntegralLocals.contains(local.index), let copy = integerLocals[Int(local.index)] else {
      return nil
    }
    let b = builder.reference
    let wide = LLVMBuildLoad2(b, int64, copy, "integral")!
    return LLVMBuildSIToFP(b, LLVMBuildTrunc(b, wide, int32, "")!, double, "")!
  }

  /// A `for` counter with an integer copy read as a double: the copy, converted (exactly: a
  /// counter is whole, below 2^53 and never -0), as C compilers read an `int` counter as a
  /// `double`. The counter's own double then carries no chain of additions through the
  /// loop, which LLVM can neither take apart nor vectorize: `s = s + i * 0.5` waited on `i`'s
  /// addition as well as on `s`'s.
  func counterValue(_ local: LocalID) -> LLVMValueRef? {
    // Outside its body a counter is read only in its loop's test, in integers.
    guard counterLoops[local.index] != nil, let copy = integerLocals[Int(local.index)] else { return nil }
    let b = builder.reference
    return LLVMBuildSIToFP(b, LLVMBuildLoad2(b, int64, copy, "counter")!, double, "")!
  }

  /// `lhs < rhs` at `node` in integers, when both sides can be computed exactly in them.
  func integerComparison(at node: ExprID) -> LLVMValueRef? {
    guard case .binary(_, let lhs, let rhs) = tree[node], integerBits(lhs) != nil, integerBits(rhs) != nil else {
      return nil
    }
    return LLVMBuildICmp(builder.reference, LLVMIntSLT, emitInteger(lhs), emitInteger(rhs), "cmp")!
  }

  /// The address of an element whose index, the expression `index`, was computed in
  /// integers (`emitInteger`): the bounds comparison alone, or none for an index proved in
  /// bounds (`provedInBounds`: by the counters' ranges, or by the loop's bound). A bad index
  /// is reported as the double the expression gives (`emitDouble(fromIntegers:)`, in the
  /// cold block): the integer has lost a zero's sign (`-len(a)` is -0).
  func elementPointer(of array: Name, position: LLVMValueRef, index: ExprID, node: ExprID) -> LLVMValueRef {
    let b = builder.reference
    let (elements, count) = loadArray(of: program.variable(of: node))
    var indices: [LLVMValueRef?] = [position]
    if provedInBounds(index, count: count) || provedInBounds(index, of: program.variable(of: node)) {
      return LLVMBuildInBoundsGEP2(b, double, elements, &indices, 1, "element.address")
    }
    let ok = block("index.ok")
    let error = block("index.error")
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, position, count, "inbounds"), ok, error)
    LLVMPositionBuilderAtEnd(b, error)
    reportIndexError(array, index: emitDouble(fromIntegers: index), count: count, node: node)
    LLVMPositionBuilderAtEnd(b, ok)
    return LLVMBuildInBoundsGEP2(b, double, elements, &indices, 1, "element.address")
  }
}
