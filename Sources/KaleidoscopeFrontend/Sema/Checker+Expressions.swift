/// Expressions and scopes: the walk over a body that resolves each name where it is used and
/// checks that it is used as the kind of name it is.
extension Checker {
  /// Checks an expression whose value is a number, which every expression's is except an
  /// array's name, an array literal and a string (`checkArgument`). Recursion depth is bounded
  /// by the parser's nesting limit, except along chains of binary operators, which are walked
  /// iteratively.
  mutating func check(_ id: ExprID) {
    switch tree[id] {
    case .number, .error:
      break
    case .variable(let name):
      resolveVariable(name, at: id, expecting: .number)
    case .unary(let op, let operand):
      check(operand)
      resolveUnary(op, at: id)
    case .binary:
      checkBinaryChain(id)
    case .assign(let target, let value):
      if case .variable(let name) = tree[target] {
        resolveVariable(name, at: target, expecting: .number, assigning: true)
      } else {
        report(.assignmentToNonVariable, at: tree.range(of: id))
        check(target)
      }
      check(value)
    case .call(let callee, let arguments):
      checkCall(callee, arguments: arguments, at: id)
    case .ifElse(let condition, let then, let otherwise):
      check(condition)
      check(then)
      check(otherwise)
    case .loop(let index):
      loops.append(id)
      switch tree.loop(index) {
      case .forLoop(let loop):
        check(loop.start)
        let mark = scopeLog.count
        bind(loop.variable, kind: .loopVariable, valueKind: .number, range: loop.variableRange)
        if records { resolutions[Int(id.index)] = Int32(locals.count - 1) }
        check(loop.end)
        if let step = loop.step { check(step) }
        check(loop.body)
        unbind(to: mark)
      case .whileLoop(let loop):
        check(loop.condition)
        check(loop.body)
      }
    case .varIn(let index):
      let varIn = tree.varIn(index)
      let mark = scopeLog.count
      for (bindingIndex, binding) in zip(varIn.bindings.indices, tree.bindings(varIn.bindings)) {
        checkValue(of: binding)
        bind(binding.name, kind: .variable, valueKind: binding.kind, range: binding.nameRange)
        if records { bindingLocals[bindingIndex] = LocalID(index: Int32(locals.count - 1)) }
      }
      check(varIn.body)
      unbind(to: mark)
    case .element(let array, let index):
      resolveVariable(array, at: id, expecting: .array)
      check(index)
    case .storeElement(let array, let index, let value):
      resolveVariable(array, at: id, expecting: .array)
      check(index)
      check(value)
    case .length(let array):
      resolveVariable(array, at: id, expecting: .array)
    case .arrayLiteral(let elements):
      report(.arrayLiteralAsNumber, at: tree.range(of: id))
      for element in tree.arguments(elements) { check(element) }
    case .string:
      report(.stringAsNumber, at: tree.range(of: id))
    case .globalDeclaration(let index):
      // The globals were declared with the item; here their initialisers are checked.
      for binding in tree.bindings(tree.globalDeclaration(index)) { checkValue(of: binding) }
    }
  }

  /// Checks what a binding is made from: a number's initialiser, an array's size, or an
  /// array's elements.
  private mutating func checkValue(of binding: VarBinding) {
    switch binding.value {
    case .number(let initializer): if let initializer { check(initializer) }
    case .zeros(let count): check(count)
    case .elements(let elements): checkArrayValue(elements)
    }
  }

  /// Checks an array literal's elements; a string needs nothing.
  private mutating func checkArrayValue(_ id: ExprID) {
    if case .arrayLiteral(let elements) = tree[id] {
      for element in tree.arguments(elements) { check(element) }
    }
  }

  /// Checks a call's arguments against the callee's parameters, or, when the callee is not
  /// declared yet, notes what kind each argument is for `finish` to compare.
  private mutating func checkCall(_ callee: Name, arguments: ExprList, at id: ExprID) {
    let list = tree.arguments(arguments)
    guard let function = functions.lookup(callee), functions.arity(of: function) == list.count else {
      let shapes = list.map { argumentShape($0) }
      putOff(.call(callee, arguments: shapes), at: id)
      return
    }
    for (index, argument) in list.enumerated() {
      checkArgument(argument, parameter: index, of: function)
    }
    recordCall(function, at: id)
  }

  /// Checks the argument passed for parameter `index` of `function`.
  mutating func checkArgument(_ id: ExprID, parameter index: Int, of function: FunctionID) {
    guard functions.takesArray(function, parameter: index) else {
      if case .variable(let name) = tree[id] {
        resolveVariable(name, at: id, expecting: .number, argumentOf: (function, index))
      } else {
        check(id)
      }
      return
    }
    switch tree[id] {
    case .variable(let name):
      resolveVariable(name, at: id, expecting: .array, argumentOf: (function, index))
    case .arrayLiteral, .string:
      checkArrayValue(id)
    default:
      check(id)
      let parameter = functions[function].prototype.parameters[index]
      report(
        .expectedArrayArgument(functions[function].spelling, parameter: tree.text(parameter.name)),
        at: tree.range(ofTokenAt: tree.firstTokenStart(of: id)), notes: [parameterNote(function, index)])
    }
  }

  /// An argument of a call whose callee is not declared yet: checked as far as it can be,
  /// and what kind it is, for `finish`.
  private mutating func argumentShape(_ id: ExprID) -> ArgumentShape {
    let start = tree.start(of: id)
    switch tree[id] {
    case .variable(let name):
      guard let reference = lookUpVariable(name) else {
        return ArgumentShape(origin: .variable(name), kind: .number, unresolvedName: name, node: id, start: start)
      }
      if records { resolutions[Int(id.index)] = CheckedProgram.encode(reference) }
      return ArgumentShape(origin: .variable(name), kind: kind(of: reference), node: id, start: start)
    case .arrayLiteral:
      checkArrayValue(id)
      return ArgumentShape(origin: .literal, kind: .array, node: id, start: start)
    case .string:
      return ArgumentShape(origin: .string, kind: .array, node: id, start: start)
    default:
      check(id)
      return ArgumentShape(origin: .expression, kind: .number, node: id, start: tree.firstTokenStart(of: id))
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

  mutating func bind(_ name: Name, kind: Local.Kind, valueKind: NameKind, range: SourceRange) {
    let local = Int32(locals.count)
    locals.append(Local(name: name, kind: kind, valueKind: valueKind, range: range))
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
