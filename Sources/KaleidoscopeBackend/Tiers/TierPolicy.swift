import KaleidoscopeFrontend

/// When code moves from the interpreter to LLVM (`run --tier auto`).
///
/// The interpreter starts at once and counts: calls of each function, and iterations of each
/// loop. A function called `hotCalls` times is compiled, with everything it can call, and
/// its later calls run the machine code. A loop that has run `hotIterations` times (in all
/// its runs so far; fewer when its iterations do more, `LoopCosts`) is compiled too, and a
/// running loop switches to its machine code at the top of an iteration (on-stack
/// replacement), so one long call does not stay interpreted.
/// Code that runs a few times is never compiled: for it, interpreting is cheaper than
/// compiling. docs/DESIGN.md has the measurements behind the numbers.
public struct TierPolicy: Sendable {
  /// Calls that make a function hot.
  public var hotCalls: Int
  /// Iterations that make a loop hot, for an iteration that does little (`LoopCosts`).
  public var hotIterations: Int
  /// Whether to compile on the interpreter's thread and wait, instead of in the background:
  /// switches then happen at the same point in every run (the tests force promotion early,
  /// late or never with it).
  public var waits: Bool

  public init(hotCalls: Int = 100, hotIterations: Int = 4096, waits: Bool = false) {
    self.hotCalls = max(1, hotCalls)
    self.hotIterations = max(0, hotIterations)
    self.waits = waits
  }
}

/// The shape of a program's calls: what each function can call, and which functions can run
/// for long (a loop in their body, or recursion, direct or mutual), for which the compiler is
/// made ready early.
struct CallGraph {
  let program: CheckedProgram
  /// Each function's definition, by `FunctionID.index` (nil for externs).
  let definitions: [CheckedBody?]
  /// Whether each function can run for long.
  let longRunning: [Bool]
  /// Whether a module that calls each function compiles a private copy of it where one
  /// compiled it already: a small function that is not recursive. A recursion LLVM cannot
  /// inline whole, and its copy only made the module longer to compile.
  let isCopied: [Bool]
  /// Whether each function is small, about what LLVM's inliner takes whole: one that cannot
  /// run for long gets no module of its own, and one that is not recursive is compiled again
  /// into every module that calls it (`isCopied`).
  let isSmall: [Bool]
  /// The most source text, in bytes, of a function that is `isSmall`: about what LLVM's
  /// inliner takes whole.
  static let smallFunctionSize = 600

  init(_ program: CheckedProgram) {
    self.program = program
    var definitions = [CheckedBody?](repeating: nil, count: program.functions.symbols.count)
    for body in program.bodies {
      if let function = body.function { definitions[Int(function.index)] = body }
    }
    self.definitions = definitions
    let inCycle = Self.functionsInCycles(definitions)
    longRunning = definitions.indices.map { index in
      guard let body = definitions[index] else { return false }
      return inCycle[index] || body.hasLoop
    }
    isSmall = definitions.map { body in
      body.map { $0.range.end - $0.range.start <= Self.smallFunctionSize } ?? false
    }
    isCopied = definitions.indices.map { [isSmall] in isSmall[$0] && !inCycle[$0] }
  }

  /// The defined functions that `roots` can call, directly or not, themselves included,
  /// leaving out those `excluded` says (already compiled or on their way).
  func closure(of roots: [FunctionID], excluding excluded: (FunctionID) -> Bool) -> [FunctionID] {
    var seen = Set<FunctionID>()
    var work = roots
    var found: [FunctionID] = []
    while let function = work.popLast() {
      guard definitions[Int(function.index)] != nil, !excluded(function), seen.insert(function).inserted else { continue }
      found.append(function)
      work += definitions[Int(function.index)]!.callees
    }
    return found.sorted()
  }

  /// The functions the code under `node` calls, without repeats: what a module with only
  /// that code needs, where its body may call much more.
  func callees(under node: ExprID) -> [FunctionID] {
    var found: [FunctionID] = []
    var work = [SyntaxNode(.expr(node))]
    while let next = work.popLast() {
      if case .expr(let id) = next.reference, calls(id), let callee = program.callee(of: id), !found.contains(callee) {
        found.append(callee)
      }
      work += program.tree.children(of: next)
    }
    return found
  }

  /// Whether the node is one that may call a function (what `CheckedProgram.callee(of:)`
  /// answers for; other nodes keep other resolutions).
  func calls(_ id: ExprID) -> Bool {
    switch program.tree[id] {
    case .call, .unary, .binary: true
    case .number, .variable, .assign, .ifElse, .loop, .varIn, .element, .storeElement, .length, .arrayLiteral, .string,
      .globalDeclaration, .error:
      false
    }
  }

  /// A loop tiered execution may compile ahead: its body's index in `program.bodies`, that
  /// of the top-level body that reaches it first, and whether it is the innermost loop of
  /// a nest (`nested`) rather than a loop outside any nest.
  struct AheadCandidate {
    let topLevel: Int
    let body: Int
    let loop: ExprID
    let nested: Bool
  }

  /// The loops tiered execution compiles ahead, in order, while its compiler has nothing
  /// else to do: first the innermost loops of nests, each of which runs once per iteration
  /// of the loops around it, then the loops outside any nest; each group in the order the
  /// program is likely to reach them (each top-level body in source order, followed by the
  /// functions it can call, depth first in the order of its calls). The loops around an
  /// inner one are left to get hot: a nest's module is far longer to compile than its
  /// inner loop's, and the loop around runs its inner loop's code from its next iteration.
  func loopsToCompileAhead() -> [AheadCandidate] {
    var inner: [AheadCandidate] = []
    var single: [AheadCandidate] = []
    for (topLevel, index) in bodiesInRunOrder() {
      let body = program.bodies[index]
      let nested = body.loops.count < 2 ? [] : nestedLoops(of: body)
      for loop in body.loops {
        if !nested.contains(loop) {
          single.append(AheadCandidate(topLevel: topLevel, body: index, loop: loop, nested: false))
        } else if !body.loops.contains(where: { $0 != loop && program.tree.contains($0, under: loop) }) {
          inner.append(AheadCandidate(topLevel: topLevel, body: index, loop: loop, nested: true))
        }
      }
    }
    return inner + single
  }

  /// Each body the program can reach, in the order it is likely to, with the top-level
  /// body that reaches it first: each top-level body in source order, followed by the
  /// functions it can call, depth first in the order of its calls.
  private func bodiesInRunOrder() -> [(topLevel: Int, body: Int)] {
    var bodyIndex: [FunctionID: Int] = [:]
    for (index, body) in program.bodies.enumerated() {
      if let function = body.function { bodyIndex[function] = index }
    }
    var order: [(topLevel: Int, body: Int)] = []
    var seen = Set<Int>()
    for (index, body) in program.bodies.enumerated() where body.function == nil {
      var work = [index]
      while let next = work.popLast() {
        guard seen.insert(next).inserted else { continue }
        order.append((index, next))
        work += program.bodies[next].callees.reversed().compactMap { bodyIndex[$0] }
      }
    }
    return order
  }

  /// The loops of `body` that are in a nest: with a loop of the body around them or inside
  /// them. One walk of the body, whatever its number of loops.
  private func nestedLoops(of body: CheckedBody) -> Set<ExprID> {
    var nested = Set<ExprID>()
    // Each node to visit, with the innermost loop around it.
    var work: [(node: SyntaxNode, around: ExprID?)] = [(SyntaxNode(.expr(body.body)), nil)]
    while let (node, around) = work.popLast() {
      var inside = around
      if case .expr(let id) = node.reference, case .loop = program.tree[id] {
        if let around {
          nested.insert(around)
          nested.insert(id)
        }
        inside = id
      }
      work += program.tree.children(of: node).map { ($0, inside) }
    }
    return nested
  }

  /// Which functions lie on a cycle of calls (Tarjan's strongly connected components, walked
  /// with an explicit stack: call chains can be long).
  private static func functionsInCycles(_ definitions: [CheckedBody?]) -> [Bool] {
    let count = definitions.count
    var index = [Int](repeating: -1, count: count)
    var lowLink = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    var inCycle = [Bool](repeating: false, count: count)
    var next = 0
    let callees = definitions.map { $0?.callees.map { Int($0.index) }.filter { definitions[$0] != nil } ?? [] }
    for root in 0..<count where index[root] < 0 && definitions[root] != nil {
      // Frames of the depth-first walk: a function and how many of its callees are done.
      var frames: [(function: Int, done: Int)] = [(root, 0)]
      index[root] = next
      lowLink[root] = next
      next += 1
      stack.append(root)
      onStack[root] = true
      while let (function, done) = frames.last {
        if done < callees[function].count {
          frames[frames.count - 1].done += 1
          let callee = callees[function][done]
          if callee == function { inCycle[function] = true }
          if index[callee] < 0 {
            index[callee] = next
            lowLink[callee] = next
            next += 1
            stack.append(callee)
            onStack[callee] = true
            frames.append((callee, 0))
          } else if onStack[callee] {
            lowLink[function] = min(lowLink[function], index[callee])
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last?.function { lowLink[parent] = min(lowLink[parent], lowLink[function]) }
        guard lowLink[function] == index[function] else { continue }
        var component: [Int] = []
        while let member = stack.popLast() {
          onStack[member] = false
          component.append(member)
          if member == function { break }
        }
        if component.count > 1 { for member in component { inCycle[member] = true } }
      }
    }
    return inCycle
  }
}
