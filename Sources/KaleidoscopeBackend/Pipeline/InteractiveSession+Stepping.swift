import KaleidoscopeFrontend
import KaleidoscopeInterpreter
import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL's `:step EXPR`: an expression run in the interpreter under an observer, step
/// by step, into every function the session defined.
///
/// The session's functions are machine code, which cannot be stepped; so the expression is
/// checked together with the source of every function's latest definition (each input is
/// kept as the file its symbols point to), and that program is interpreted whole, on the
/// session's own globals.
extension InteractiveSession {
  /// What stepping through an expression did.
  public enum SteppingOutcome {
    /// The expression has errors (as the input it would be).
    case failed(DiagnosticBag)
    /// It ran to its end, was stopped by the observer, or faulted (the error).
    case ran(InterpreterError?)
  }

  public func step(through expression: String, observer: any DebugObserver) throws -> SteppingOutcome {
    try tiers?.waitForCompiles()
    let text = definitionsSource() + expression + "\n"
    let checked = Frontend.check(SourceFile(name: "<step>", text: text), after: declarations, mode: .interactive)
    if checked.diagnostics.hasErrors { return .failed(checked.diagnostics) }
    let program = checked.program
    guard let index = program.bodies.lastIndex(where: { if case .topLevel = $0.kind { true } else { false } }) else {
      return .ran(nil)
    }
    let cells = GlobalCells(borrowing: program.globals.symbols.compactMap { globalCells[$0.spelling] })
    let interpreter = Interpreter(
      program: program, host: RuntimeHost(protectsCalls: true), forSemantics: options.forSemantics, globals: cells)
    interpreter.debugObserver = observer
    return .ran(Self.evaluateOnItsStack(index, in: interpreter))
  }

  /// The text of the latest definition of every function the session defined, in the
  /// order they were declared (so that an operator is defined before the text that uses it).
  private func definitionsSource() -> String {
    var text = ""
    var parsed: [ObjectIdentifier: SyntaxTree] = [:]
    for symbol in declarations.functions.symbols where symbol.origin == .defined {
      let tree = parsed[ObjectIdentifier(symbol.file)] ?? parse(symbol.file).tree
      parsed[ObjectIdentifier(symbol.file)] = tree
      let definitions = tree.items.compactMap { item -> FunctionDefinition? in
        if case .definition(let definition) = item { definition } else { nil }
      }
      // `fib(n)`, `unary!(v)`, `binary| 5 (a b)`: the spelling, then `(` or a space.
      let defines = { (definition: FunctionDefinition) in
        let text = tree.describe(definition.prototype)
        return text.hasPrefix(symbol.spelling + "(") || text.hasPrefix(symbol.spelling + " ")
      }
      guard let definition = definitions.last(where: defines) else { continue }
      text += symbol.file.text(in: definition.range) + "\n"
    }
    return text
  }
}
