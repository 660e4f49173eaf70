import KaleidoscopeFrontend

/// A checked program's definitions found by the name of their function, as tests name them
/// (`CheckedProgram.function(named:)`).
extension CheckedProgram {
  /// The index in `bodies` of the definition of the function spelled `name`.
  public func bodyIndex(ofFunction name: String) -> Int? {
    guard let function = function(named: name) else { return nil }
    return bodies.firstIndex { $0.function == function }
  }

  /// The definition of the function spelled `name`.
  public func body(ofFunction name: String) -> CheckedBody? {
    bodyIndex(ofFunction: name).map { bodies[$0] }
  }
}
