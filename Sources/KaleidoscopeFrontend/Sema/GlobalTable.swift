/// Identifies a global variable in a `GlobalTable`.
public struct GlobalID: Hashable, Sendable {
  public let index: Int32

  public init(index: Int32) {
    self.index = index
  }
}

/// A global variable: a number or an array, declared by a top-level `var` (SPEC §5).
public struct GlobalSymbol: Sendable {
  public var name: Name
  public var spelling: String
  public var kind: NameKind
  /// Where the name is written in its latest declaration.
  public var range: SourceRange
  /// The file of that declaration (REPL inputs are files of their own).
  public var file: SourceFile
}

/// The global variables of a program or a REPL session, by name.
public struct GlobalTable: Sendable {
  public private(set) var symbols: [GlobalSymbol] = []
  /// The global of each name, indexed by `Name.index`; -1 where none.
  private var idsByName: [Int32] = []

  public init() {}

  public subscript(id: GlobalID) -> GlobalSymbol { symbols[Int(id.index)] }

  public func lookup(_ name: Name) -> GlobalID? {
    let index = Int(name.index)
    guard index < idsByName.count, idsByName[index] >= 0 else { return nil }
    return GlobalID(index: idsByName[index])
  }

  /// All global IDs in the order they were first declared.
  public var ids: [GlobalID] { (0..<Int32(symbols.count)).map(GlobalID.init(index:)) }

  mutating func add(_ symbol: GlobalSymbol) -> GlobalID {
    let id = GlobalID(index: Int32(symbols.count))
    symbols.append(symbol)
    let index = Int(symbol.name.index)
    if index >= idsByName.count {
      idsByName.append(contentsOf: repeatElement(-1, count: index + 1 - idsByName.count))
    }
    idsByName[index] = id.index
    return id
  }

  /// Records a new declaration of an existing global (a REPL input declaring it again).
  mutating func redeclare(_ id: GlobalID, at range: SourceRange, in file: SourceFile) {
    symbols[Int(id.index)].range = range
    symbols[Int(id.index)].file = file
  }
}
