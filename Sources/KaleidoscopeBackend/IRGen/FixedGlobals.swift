import KaleidoscopeFrontend

extension IRGenerator {
  /// Globals that a module has as constants, by `GlobalID.index`: numbers, and the counts of
  /// arrays (whose elements' address still comes from the global's cell). Every read of
  /// them in the module's code must come after the declaration that gave them their value,
  /// after which it never changes (a number that nothing assigns; an array's count, which
  /// only its one declaration writes).
  ///
  /// A tiered module's are read from the interpreter's cells (`TierCompiler.fixedGlobals`);
  /// a whole program's are those it declares before any code runs (`init(declaredFirstIn:)`).
  struct FixedGlobals {
    var numbers: [Int32: Double] = [:]
    var arrays: [Int32: UInt64] = [:]
  }
}

extension IRGenerator.FixedGlobals {
  /// The globals of a whole program declared before the first top-level item that can run
  /// code: until then, only definitions and declarations whose every initialiser, size and
  /// element is a literal. No function can be called, nor a global read, before they are
  /// declared, so every read sees the value of its declaration (SPEC: a global reads 0, or
  /// an empty array, only until then). Compiled, `N` and `len(a)` are then constants in
  /// every function, as in the C that `#define`s them, and a loop to them needs no bounds
  /// check. The numbers are those with a literal initialiser (or none) that nothing assigns.
  init(declaredFirstIn program: CheckedProgram) {
    let tree = program.tree
    let assigned = WholeIndexAnalysis.assignedGlobals(of: program)
    for item in tree.items {
      switch item {
      case .definition, .external, .brokenDefinition: continue
      case .expression: return
      case .globals(let root):
        guard case .globalDeclaration(let index) = tree[root] else { return }
        let bindings = tree.bindings(tree.globalDeclaration(index))
        let known = bindings.map { Self.knownValue(of: $0, in: program) }
        guard known.allSatisfy({ $0 != nil }) else { return }
        for (binding, value) in zip(bindings, known) {
          guard let global = program.globals.lookup(binding.name), let value else { continue }
          switch value {
          case .number(let number) where !assigned.contains(global.index): numbers[global.index] = number
          case .number: continue
          case .count(let count): arrays[global.index] = count
          }
        }
      }
    }
  }

  /// What a binding of a global holds once declared, known without running any code.
  private enum KnownValue {
    case number(Double)
    case count(UInt64)
  }

  /// A binding's value if its declaration runs no code and cannot fail: a literal number or
  /// none; `a[n]` with `n` a literal length; a string; an array literal of literals.
  private static func knownValue(of binding: VarBinding, in program: CheckedProgram) -> KnownValue? {
    let tree = program.tree
    switch binding.value {
    case .number(let initializer):
      guard let initializer else { return .number(0) }
      return WholeIndexAnalysis.literalValue(initializer, in: program).map { .number($0) }
    case .zeros(let size):
      guard let length = WholeIndexAnalysis.literalValue(size, in: program), length >= 0, length < 0x1_0000_0000,
        length.rounded(.towardZero) == length
      else { return nil }
      return .count(UInt64(length))
    case .elements(let literal):
      if case .string(let index) = tree[literal] { return .count(UInt64(tree.string(index).count)) }
      guard case .arrayLiteral(let list) = tree[literal] else { return nil }
      let elements = tree.arguments(list)
      guard elements.allSatisfy({ WholeIndexAnalysis.literalValue($0, in: program) != nil }) else { return nil }
      return .count(UInt64(elements.count))
    }
  }
}
