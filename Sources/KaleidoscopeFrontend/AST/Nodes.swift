/// The parts of a program as the syntax tree holds them: expressions (`Expr`), the side
/// tables of larger constructs, prototypes, definitions and items.

/// An expression node. Children are `ExprID`s into the same tree, so the tree is a flat
/// array: building it allocates no node objects, and freeing it never recurses, however deep
/// the program nests. Constructs with more parts keep them in side tables (`Loop`, `VarIn`).
public enum Expr: Sendable, Equatable {
  /// A numeric literal.
  case number(Double)
  /// A use of a parameter, `var`, loop variable or global, by name.
  case variable(Name)
  /// A prefix operator: the built-in `-` or a user-defined `unary` operator.
  case unary(op: UInt8, operand: ExprID)
  /// An infix operator: built-in or user-defined `binary`. `=` is `.assign` instead.
  case binary(op: UInt8, lhs: ExprID, rhs: ExprID)
  /// `target = value`; sema checks that the target is a number variable.
  case assign(target: ExprID, value: ExprID)
  /// `callee(arguments...)`.
  case call(callee: Name, arguments: ExprList)
  /// `if condition then thenBranch else elseBranch`.
  case ifElse(condition: ExprID, then: ExprID, else: ExprID)
  /// A loop of any kind; its parts are in `SyntaxTree.loop(_:)`, and the index numbers the
  /// tree's loops from 0 (tiered execution keeps one slot per loop).
  case loop(Int32)
  /// `var a = 1, b[n] in body`; the parts are in `SyntaxTree.varIn(_:)`.
  case varIn(Int32)
  /// `array[index]`, an element's value.
  case element(array: Name, index: ExprID)
  /// `array[index] = value`.
  case storeElement(array: Name, index: ExprID, value: ExprID)
  /// `len(array)`.
  case length(array: Name)
  /// `[e1, e2, ...]`: a fresh array of those values.
  case arrayLiteral(elements: ExprList)
  /// `"text"`: a fresh array of the text's bytes, in `SyntaxTree.string(_:)`.
  case string(Int32)
  /// `var x = 1, a[n]` at the top level: what runs when the program reaches the declaration
  /// (the globals' initialisers, in order); its bindings are in `SyntaxTree.bindings(_:)`.
  case globalDeclaration(Int32)
  /// Where a lexical error stood; the error was already reported.
  case error
}

/// Whether a name holds a number or an array (SPEC §5). Known from the declaration, so every
/// misuse is found before the program runs.
public enum NameKind: Sendable, Equatable {
  case number
  case array
}

/// A loop. What every loop has (a body, a keyword, maybe a variable of its own) is read
/// here, so passes that do not care which kind a loop is never name one; a new kind of loop is
/// a new case, and every `switch` that lowers loops then asks what it does.
public enum Loop: Sendable, Equatable {
  /// `for variable = start, end, step in body`.
  case forLoop(ForLoop)
  /// `while condition in body` (SPEC §5.1).
  case whileLoop(WhileLoop)

  /// The expression each iteration evaluates.
  public var body: ExprID {
    switch self {
    case .forLoop(let loop): loop.body
    case .whileLoop(let loop): loop.body
    }
  }

  /// The keyword that starts the loop.
  public var keyword: Keyword {
    switch self {
    case .forLoop: .for
    case .whileLoop: .while
    }
  }

  /// The variable the loop declares, scoped to it: `for`'s.
  public var variable: (name: Name, range: SourceRange)? {
    switch self {
    case .forLoop(let loop): (loop.variable, loop.variableRange)
    case .whileLoop: nil
    }
  }
}

/// The parts of a `for` loop.
public struct ForLoop: Sendable, Equatable {
  public var variable: Name
  public var variableRange: SourceRange
  public var start: ExprID
  public var end: ExprID
  public var step: ExprID?
  public var body: ExprID
}

/// The parts of a `while` loop.
public struct WhileLoop: Sendable, Equatable {
  public var condition: ExprID
  public var body: ExprID
}

/// A run of the tree's binding table: the bindings of one `var`.
public struct Bindings: Sendable, Equatable {
  /// The index of the first binding in the tree's binding table.
  public var first: Int32
  public var count: Int32

  /// The indices of the bindings in the tree's binding table.
  @inlinable public var indices: Range<Int> { Int(first)..<Int(first + count) }
}

/// The parts of a `var ... in` expression.
public struct VarIn: Sendable, Equatable {
  public var bindings: Bindings
  public var body: ExprID
}

/// One binding of a `var`: `x`, `x = e`, `a[n]`, `a[] = [1, 2]` or `s[] = "text"`.
public struct VarBinding: Sendable, Equatable {
  /// What a binding makes.
  public enum Value: Sendable, Equatable {
    /// A number, `x = initializer`; nil when absent: the variable starts at 0.0.
    case number(initializer: ExprID?)
    /// `a[count]`: an array of `count` zeros.
    case zeros(count: ExprID)
    /// `a[] = [...]` or `a[] = "..."`: an `.arrayLiteral` or `.string` node.
    case elements(ExprID)
  }

  public var name: Name
  public var nameRange: SourceRange
  public var value: Value

  public var kind: NameKind {
    switch value {
    case .number: .number
    case .zeros, .elements: .array
    }
  }
}

/// A function parameter: `x`, or `a[]` for an array.
public struct Parameter: Sendable, Equatable {
  public var name: Name
  public var range: SourceRange
  public var kind: NameKind

  public init(name: Name, range: SourceRange, kind: NameKind = .number) {
    self.name = name
    self.range = range
    self.kind = kind
  }
}

/// The signature of a function or operator: `fib(n)`, `unary!(v)`, `binary| 5 (a b)`.
public struct Prototype: Sendable, Equatable {
  /// What a prototype defines.
  public enum Kind: Sendable, Equatable {
    case function
    case unaryOperator(UInt8)
    case binaryOperator(UInt8, precedence: Int)
  }

  public var kind: Kind
  /// The function's symbol: `fib`, `unary!`, `binary|`.
  public var name: Name
  /// Where the name (or the operator character) is written.
  public var nameRange: SourceRange
  public var parameters: [Parameter]
  /// From the name (or the `unary`/`binary` keyword) to the closing parenthesis.
  public var range: SourceRange

  public var arity: Int { parameters.count }
}

/// `def prototype body`.
public struct FunctionDefinition: Sendable, Equatable {
  public var prototype: Prototype
  public var body: ExprID
  /// From `def` to the end of the body.
  public var range: SourceRange
}

/// A top-level item of a program.
public enum Item: Sendable, Equatable {
  case definition(FunctionDefinition)
  case external(Prototype)
  /// A top-level expression: evaluated, its value printed by `run`.
  case expression(ExprID)
  /// A declaration of globals: its `.globalDeclaration` node runs when the program reaches it.
  case globals(ExprID)
  /// A definition whose body did not parse. Its prototype still declares the function, so
  /// calls to it elsewhere are not reported as unknown.
  case brokenDefinition(Prototype)
}
