/// Identifies a function in a `FunctionTable`.
public struct FunctionID: Hashable, Sendable, Comparable {
  public let index: Int32

  public init(index: Int32) {
    self.index = index
  }

  public static func < (lhs: FunctionID, rhs: FunctionID) -> Bool { lhs.index < rhs.index }
}

/// A function as the rest of the compiler sees it: a name, an arity, and whether a
/// Kaleidoscope body defines it or the host provides it.
public struct FunctionSymbol: Sendable {
  /// Where a function's code comes from.
  public enum Origin: Sendable, Equatable {
    /// `extern`: the runtime, the C library or libm provides it.
    case external
    /// `def`: compiled from Kaleidoscope.
    case defined
  }

  public var name: Name
  public var spelling: String
  public var origin: Origin
  /// The declaration diagnostics point at: the definition if there is one, else the first
  /// `extern`.
  public var prototype: Prototype
  /// The file the declaration is in (REPL inputs are files of their own).
  public var file: SourceFile

  public var arity: Int { prototype.arity }
}

/// The functions of a program or a REPL session, by name.
public struct FunctionTable: Sendable {
  public private(set) var symbols: [FunctionSymbol] = []
  /// The arity of each function, kept apart from the symbols so that checking a call reads
  /// four bytes, not a whole symbol.
  private var arities: [Int32] = []
  /// Which parameters of each function are arrays, a bit each (the first 64; a function with
  /// more keeps the rest in its prototype), for the same reason.
  private var arrayParameters: [UInt64] = []
  /// The function of each name, indexed by `Name.index`; -1 where none.
  private var idsByName: [Int32] = []

  public init() {}

  public subscript(id: FunctionID) -> FunctionSymbol { symbols[Int(id.index)] }

  /// A function's number of parameters, without copying its symbol.
  public func arity(of id: FunctionID) -> Int { Int(arities[Int(id.index)]) }

  /// Whether parameter `index` of a function takes an array, without copying its symbol.
  public func takesArray(_ id: FunctionID, parameter index: Int) -> Bool {
    index < 64
      ? arrayParameters[Int(id.index)] & (1 << index) != 0 : symbols[Int(id.index)].prototype.parameters[index].kind == .array
  }

  private static func arrayBits(_ prototype: Prototype) -> UInt64 {
    var bits: UInt64 = 0
    for (index, parameter) in prototype.parameters.prefix(64).enumerated() where parameter.kind == .array {
      bits |= 1 << index
    }
    return bits
  }

  public func lookup(_ name: Name) -> FunctionID? {
    let index = Int(name.index)
    guard index < idsByName.count, idsByName[index] >= 0 else { return nil }
    return FunctionID(index: idsByName[index])
  }

  /// All function IDs in the order they were first declared.
  public var ids: [FunctionID] { (0..<Int32(symbols.count)).map(FunctionID.init(index:)) }

  mutating func add(_ symbol: FunctionSymbol) -> FunctionID {
    let id = FunctionID(index: Int32(symbols.count))
    symbols.append(symbol)
    arities.append(Int32(symbol.arity))
    arrayParameters.append(Self.arrayBits(symbol.prototype))
    let index = Int(symbol.name.index)
    if index >= idsByName.count {
      idsByName.append(contentsOf: repeatElement(-1, count: index + 1 - idsByName.count))
    }
    idsByName[index] = id.index
    return id
  }

  mutating func update(_ id: FunctionID, _ change: (inout FunctionSymbol) -> Void) {
    change(&symbols[Int(id.index)])
    arities[Int(id.index)] = Int32(symbols[Int(id.index)].arity)
    arrayParameters[Int(id.index)] = Self.arrayBits(symbols[Int(id.index)].prototype)
  }
}
