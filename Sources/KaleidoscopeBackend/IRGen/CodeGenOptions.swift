import KaleidoscopeFrontend

/// Choices that change the code generated for a program.
public struct CodeGenOptions: Sendable {
  /// Which `for` loop the program means (SPEC §3).
  public typealias ForSemantics = KaleidoscopeFrontend.ForSemantics

  public var forSemantics: ForSemantics = .current
  /// Whether the entry function prints each top-level expression's value (`run` without `-q`).
  public var printValues = true

  public init(forSemantics: ForSemantics = .current, printValues: Bool = true) {
    self.forSemantics = forSemantics
    self.printValues = printValues
  }
}

/// Names shared by the generated code, the JIT and the runtime.
public enum Symbols {
  /// The function that runs a program's top-level expressions in order.
  public static let entry = "__ks_main"
  static let printValue = "ks_print_value"
  static let unresolvedExtern = "ks_unresolved_extern"
}
