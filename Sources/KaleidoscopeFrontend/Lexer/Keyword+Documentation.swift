/// A chapter of LLVM's tutorial, "My First Language Frontend", which introduces the
/// language piece by piece.
public struct TutorialChapter: Sendable, Equatable {
  public let number: Int
  public let title: String

  /// The chapter's page on llvm.org.
  public var url: String {
    "https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl\(number < 10 ? "0" : "")\(number).html"
  }

  static let lexer = TutorialChapter(number: 1, title: "The Kaleidoscope language and lexer")
  static let parser = TutorialChapter(number: 2, title: "Implementing a parser and AST")
  static let controlFlow = TutorialChapter(number: 5, title: "Extending the language: control flow")
  static let operators = TutorialChapter(number: 6, title: "Extending the language: user-defined operators")
  static let variables = TutorialChapter(number: 7, title: "Extending the language: mutable variables")
  static let extending = TutorialChapter(number: 10, title: "Conclusion and other useful LLVM tidbits")
}

/// What a keyword or a built-in operator means, in a line, and the tutorial chapter that
/// introduces it: the language server's hover and the playground's share these words.
public struct LanguageDocumentation: Sendable, Equatable {
  public let summary: String
  public let chapter: TutorialChapter

  /// The Markdown an editor shows: the summary and a link to the chapter.
  public var markdown: String {
    "\(summary)\n\nIntroduced in [chapter \(chapter.number), \(chapter.title)](\(chapter.url))."
  }
}

extension Keyword {
  /// What the keyword means and where the tutorial introduces it (`while`, `len` and
  /// global `var` are this implementation's extensions, after chapter 10's suggestions).
  public var documentation: LanguageDocumentation {
    switch self {
    case .def: .init(summary: "`def name(params) body` defines a function.", chapter: .parser)
    case .extern:
      .init(
        summary: "`extern name(params)` declares a function the host provides, such as `sin` or `putchard`.",
        chapter: .parser)
    case .if, .then, .else:
      .init(
        summary: "`if c then a else b` is `a` when `c` is not 0.0 (nor NaN), else `b`.", chapter: .controlFlow)
    case .for:
      .init(
        summary: "`for i = start, i < end, step in body` runs `body` while the test holds, then adds `step` "
          + "(1 if omitted); its value is 0.",
        chapter: .controlFlow)
    case .in: .init(summary: "`in` begins the body of a `for`, a `while` or a `var`.", chapter: .controlFlow)
    case .while:
      .init(
        summary: "`while c in body` runs `body` as long as `c` holds; its value is 0. An extension.",
        chapter: .extending)
    case .var:
      .init(
        summary: "`var x = e in body` makes a mutable local for `body`; at the top level, `var` declares a "
          + "global (an extension).",
        chapter: .variables)
    case .binary:
      .init(summary: "`def binary| 5 (a b) ...` defines a binary operator with a precedence.", chapter: .operators)
    case .unary: .init(summary: "`def unary! (v) ...` defines a prefix operator.", chapter: .operators)
    case .len: .init(summary: "`len(a)` is the number of elements of the array `a`. An extension.", chapter: .extending)
    }
  }
}

extension OperatorTable {
  /// What a built-in operator means, or nil for another character.
  public static func documentation(ofBuiltin op: UInt8) -> LanguageDocumentation? {
    switch op {
    case UInt8(ascii: "+"): .init(summary: "`a + b` adds two doubles.", chapter: .parser)
    case UInt8(ascii: "-"): .init(summary: "`a - b` subtracts; as a prefix, `-a` negates.", chapter: .parser)
    case UInt8(ascii: "*"): .init(summary: "`a * b` multiplies two doubles.", chapter: .parser)
    case UInt8(ascii: "/"): .init(summary: "`a / b` divides two doubles. An extension.", chapter: .extending)
    case UInt8(ascii: "<"):
      .init(summary: "`a < b` is 1.0 when `a` is less than `b` or either is NaN, else 0.0.", chapter: .parser)
    case UInt8(ascii: "="): .init(summary: "`x = e` assigns `e` to a variable; its value is `e`.", chapter: .variables)
    default: nil
    }
  }
}

/// What each kind of node of the syntax tree is (as `ast` names it) and the tutorial chapter
/// that introduces it, for the playground's tree.
public enum SyntaxDocumentation {
  /// Every kind `ast` prints, with its documentation.
  public static let nodeKinds: [String: LanguageDocumentation] = [
    "Function": .init(summary: "A function definition: its prototype and its body.", chapter: .parser),
    "Extern": .init(summary: "A declaration of a function the host provides.", chapter: .parser),
    "TopLevelExpr": .init(summary: "An expression at the top level, run in order.", chapter: .parser),
    "Number": .init(summary: "A number literal; every value is a double.", chapter: .parser),
    "Variable": .init(summary: "A reference to a variable.", chapter: .parser),
    "Binary": .init(summary: "A binary operator, built in or user-defined.", chapter: .parser),
    "Call": .init(summary: "A call of a function with its arguments.", chapter: .parser),
    "If": .init(summary: "`if` / `then` / `else`: a choice between two values.", chapter: .controlFlow),
    "For": .init(summary: "A `for` loop: its variable, start, test, step and body.", chapter: .controlFlow),
    "LoopVar": .init(summary: "A `for` loop's own variable and its start.", chapter: .controlFlow),
    "While": .init(summary: "A `while` loop: its condition and body (an extension).", chapter: .extending),
    "Unary": .init(summary: "A prefix operator: `-`, or a user-defined one.", chapter: .operators),
    "VarIn": .init(summary: "`var ... in body`: mutable locals for a body.", chapter: .variables),
    "Var": .init(summary: "One variable a `var` makes, with its initial value.", chapter: .variables),
    "Assign": .init(summary: "An assignment `x = e`.", chapter: .variables),
    "Globals": .init(summary: "A top-level `var`: global variables (an extension).", chapter: .extending),
    "GlobalVar": .init(summary: "The variables a top-level `var` declares (an extension).", chapter: .extending),
    "Element": .init(summary: "An array element `a[i]` (an extension).", chapter: .extending),
    "StoreElement": .init(summary: "An assignment to an array element `a[i] = e` (an extension).", chapter: .extending),
    "Length": .init(summary: "`len(a)`, an array's length (an extension).", chapter: .extending),
    "ArrayLiteral": .init(summary: "An array literal `[1, 2, 3]` (an extension).", chapter: .extending),
    "String": .init(summary: "A string literal, an array of bytes (an extension).", chapter: .extending),
  ]
}
