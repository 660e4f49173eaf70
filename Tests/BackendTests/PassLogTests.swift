import KaleidoscopeBackend
import Testing

/// `PassLog` reads LLVM's `-print-changed` output: each change is a function's text before
/// and after a pass, whatever the unit the pass ran on.
@Suite("Pass log")
struct PassLogTests {
  static let start = """
    *** IR Dump At Start ***
    ; ModuleID = 'test.ks'
    define double @f(double %x) {
    entry:
      %a = fadd double %x, 0.000000e+00
      ret double %a
    }

    define double @"binary:"(double %x, double %y) {
    entry:
      ret double %y
    }

    """

  @Test func aFunctionPassChangesOneFunction() {
    let log = PassLog(
      printChangedOutput: (Self.start + """
        *** IR Dump After SROAPass on f omitted because no change ***
        *** IR Pass PassManager<Function> on f ignored ***
        *** IR Dump After InstCombinePass on f ***
        define double @f(double %x) {
        entry:
          ret double %x
        }
        *** IR Dump After InstCombinePass on binary: omitted because no change ***

        """)[...])
    #expect(log.passesRun == 3)
    #expect(log.passesChanged == 1)
    #expect(log.changes.map(\.pass) == ["InstCombinePass"])
    #expect(log.changes.first?.function == "f")
    #expect(log.changes.first?.before.contains("fadd") == true)
    #expect(log.changes.first?.after == "define double @f(double %x) {\nentry:\n  ret double %x\n}\n")
    #expect(Set(log.start.keys) == ["f", "binary:"])
  }

  /// A module pass dumps every function: only those that differ are its changes, and one
  /// that is gone was deleted.
  @Test func aModulePassIsChargedForWhatItChangedAndDeleted() {
    let log = PassLog(
      printChangedOutput: (Self.start + """
        *** IR Dump After GlobalDCEPass on [module] ***
        ; ModuleID = 'test.ks'
        define double @f(double %x) {
        entry:
          %a = fadd double %x, 0.000000e+00
          ret double %a
        }

        """)[...])
    #expect(log.passesChanged == 1)
    #expect(log.changes == [PassChange(pass: "GlobalDCEPass", function: "binary:", before: log.start["binary:"]!, after: "")])
  }

  @Test func aPassThatChangesNothingVisibleIsNotCounted() {
    let log = PassLog(
      printChangedOutput: (Self.start + """
        *** IR Dump After InlinerPass on (f) ***
        define double @f(double %x) {
        entry:
          %a = fadd double %x, 0.000000e+00
          ret double %a
        }

        """)[...])
    #expect(log.passesRun == 1)
    #expect(log.passesChanged == 0)
    #expect(log.changes.isEmpty)
  }
}
