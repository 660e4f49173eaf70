import KaleidoscopeFrontend
import Synchronization

/// What a tiered run knows of its program's globals, worked out once, on first need, by
/// whichever thread asks first: the interpreter's, declaring an array, or the compiler's,
/// building a module. Both must see one answer, since they share the arrays' memory and
/// one list says which of them keep integers.
final class ProgramGlobalFacts: Sendable {
  private let program: CheckedProgram
  private let forSemantics: ForSemantics
  private let made = Mutex<WholeIndexAnalysis.GlobalFacts?>(nil)

  init(program: CheckedProgram, forSemantics: ForSemantics) {
    self.program = program
    self.forSemantics = forSemantics
  }

  /// `WholeIndexAnalysis.globalFacts` of the program.
  var facts: WholeIndexAnalysis.GlobalFacts {
    made.withLock { made in
      if let made { return made }
      let facts = WholeIndexAnalysis.globalFacts(of: program, forSemantics: forSemantics)
      made = facts
      return facts
    }
  }
}
