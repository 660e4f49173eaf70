import KaleidoscopeFrontend

/// A checked program's functions and their definitions found by name, as tests name them,
/// through the front end's own tables (`NameTable.lookup`, `FunctionTable.lookup`).
extension CheckedProgram {
  /// The function spelled `name`, or nil if the program has none.
  public func function(named name: String) -> FunctionID? {
    tree.names.lookup(name).flatMap(functions.lookup)
  }

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
