import KaleidoscopeFrontend
import Synchronization

/// What a tiered run knows of its program's globals, worked out once, on first need, by
/// whichever thread asks first: the interpreter's, declaring an array, or the compiler's,
/// building a module. Both must see one answer, since they share the arrays' memory and
/// one list says which of them keep integers.
final class ProgramGlobalFacts: Sendable {
  /// What is known of each global (`WholeIndexAnalysis.stableGlobals`), and the array
  /// globals kept as integers (`WholeIndexAnalysis.integerArrays`), by `GlobalID.index`.
  struct Facts {
    var stable: [WholeIndexAnalysis.Whole?]
    var integerArrays: [Bool]
  }

  private let program: CheckedProgram
  private let forSemantics: ForSemantics
  private let made = Mutex<Facts?>(nil)

  init(program: CheckedProgram, forSemantics: ForSemantics) {
    self.program = program
    self.forSemantics = forSemantics
  }

  var facts: Facts {
    made.withLock { made in
      if let made { return made }
      let stable = WholeIndexAnalysis.stableGlobals(of: program, forSemantics: forSemantics)
      let facts = Facts(stable: stable, integerArrays: WholeIndexAnalysis.integerArrays(of: program, globals: stable))
      made = facts
      return facts
    }
  }
}
