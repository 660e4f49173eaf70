/// Expressions and scopes: the walk over a body that resolves each name where it is used.
extension Checker {
  /// Checks an expression. Recursion depth is bounded by the parser's nesting limit, except
  /// along chains of binary operators, which are walked iteratively.
  mutating func check(_ id: ExprID) {
    switch tree[id] {
    case .number, .error:
      break
    case .variable(let name):
      resolveVariable(name, at: id)
    case .unary(let op, let operand):
      check(operand)
      resolveUnary(op, at: id)
    case .binary:
      checkBinaryChain(id)
    case .assign(let target, let value):
      if case .variable(let name) = tree[target] {
        resolveVariable(name, at: target)
        if records { resolutions[Int(id.index)] = resolutions[Int(target.index)] }
      } else {
        report(.assignmentToNonVariable, at: tree.range(of: id))
        check(target)
      }
      check(value)
    case .call(let callee, let arguments):
      for argument in tree.arguments(arguments) { check(argument) }
      resolveCall(callee, argumentCount: Int(arguments.count), at: id)
    case .ifElse(let condition, let then, let otherwise):
      check(condition)
      check(then)
      check(otherwise)
    case .forLoop(let index):
      let loop = tree.forLoop(index)
      check(loop.start)
      let mark = scopeLog.count
      bind(loop.variable, kind: .loopVariable, range: loop.variableRange)
      if records { resolutions[Int(id.index)] = Int32(locals.count - 1) }
      check(loop.end)
      if let step = loop.step { check(step) }
      check(loop.body)
      unbind(to: mark)
    case .varIn(let index):
      let varIn = tree.varIn(index)
      let mark = scopeLog.count
      for (bindingIndex, binding) in zip(varIn.bindingIndices, tree.bindings(of: varIn)) {
        if let initializer = binding.initializer { check(initializer) }
        bind(binding.name, kind: .variable, range: binding.nameRange)
        if records { bindingLocals[bindingIndex] = LocalID(index: Int32(locals.count - 1)) }
      }
      check(varIn.body)
      unbind(to: mark)
    }
  }

  /// Checks `lhs op rhs`. A chain whose left operand is itself binary (`1 + 2 + ... + n`) is
  /// walked down its left spine iteratively, with `spine` as a shared stack.
  private mutating func checkBinaryChain(_ id: ExprID) {
    guard case .binary(let op, let lhs, let rhs) = tree[id] else { return }
    guard case .binary = tree[lhs] else {
      check(lhs)
      check(rhs)
      resolveBinary(op, at: id)
      return
    }
    let base = spine.count
    var current = id
    while case .binary(_, let left, _) = tree[current] {
      spine.append(current)
      current = left
    }
    check(current)
    while spine.count > base {
      let node = spine.removeLast()
      guard case .binary(let op, _, let rhs) = tree[node] else { continue }
      check(rhs)
      resolveBinary(op, at: node)
    }
  }

  // MARK: - Scopes

  mutating func bind(_ name: Name, kind: Local.Kind, range: SourceRange) {
    let local = Int32(locals.count)
    locals.append(Local(name: name, kind: kind, range: range))
    scopeLog.append((name.index, scope[Int(name.index)]))
    scope[Int(name.index)] = local
  }

  mutating func unbind(to mark: Int) {
    while scopeLog.count > mark {
      let (name, previous) = scopeLog.removeLast()
      scope[Int(name)] = previous
    }
  }
}
