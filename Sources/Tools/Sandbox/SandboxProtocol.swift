#if canImport(Glibc)
  import Glibc
#endif

/// What crosses between the tool, the sandbox and the playground's API, typed: how a program
/// runs (`Tier`), which view of it to print (`View`), for which target (`TargetName`), and the
/// framing of the sandboxed side's standard input (`SandboxInput`). The command line, the
/// sandbox, the server and the page's API all spell these the same way.

/// How a program runs. Every tier prints the same output.
public enum Tier: String, CaseIterable, Sendable {
  /// The interpreter at once, LLVM in the background for what gets hot (`run`'s default).
  case auto
  /// LLVM compiles everything reachable first.
  case jit
  /// The reference interpreter only.
  case interp

  /// The tier `spelling` names: its name, or `interpreter`, the older spelling of `interp`
  /// that `run --engine` and the API's `engine` took and still take.
  public init?(spelling: String) {
    if spelling == "interpreter" {
      self = .interp
    } else {
      self.init(rawValue: spelling)
    }
  }
}

/// A view of a program: the playground's panes and the hidden `sandboxed-view` command.
public enum View: String, CaseIterable, Sendable {
  case tokens, ast, ir, asm
  /// The optimiser pass by pass (`ir --passes`), printed as `PassesViewOutput`'s JSON.
  case passes
  /// The control-flow graphs (`cfg`), printed as `CFGViewOutput`'s JSON.
  case cfg
}

/// What the `passes` view prints: the report `ir --passes` prints, the functions, and each
/// run of a pass (SPEC §7).
public struct PassesViewOutput: Codable, Sendable, Equatable {
  /// One run of a pass on a function: what it changed, or that it changed nothing.
  public struct Run: Codable, Sendable, Equatable {
    public var pass: String
    public var function: String
    public var changed: Bool
    public var before: String
    public var after: String

    public init(pass: String, function: String, changed: Bool, before: String, after: String) {
      (self.pass, self.function, self.changed, self.before, self.after) = (pass, function, changed, before, after)
    }
  }

  public var text: String
  /// The functions of the program, in order, by their IR names.
  public var functions: [String]
  public var passes: [Run]
  /// Whether the IR of later runs was left out (`before` and `after` empty) to keep the
  /// answer within `PassesViewOutput.irLimit` bytes.
  public var truncated: Bool

  /// The most bytes of IR (every `before` and `after`) one answer carries.
  public static let irLimit = 4 << 20

  public init(text: String, functions: [String], passes: [Run], truncated: Bool) {
    (self.text, self.functions, self.passes, self.truncated) = (text, functions, passes, truncated)
  }
}

/// What the `cfg` view prints: each function's graph in DOT, and one DOT of them all to draw.
public struct CFGViewOutput: Codable, Sendable, Equatable {
  /// One `digraph` per function.
  public var text: String
  /// One `digraph` holding each function as a cluster, for Graphviz to draw as one SVG;
  /// empty when the graphs are too large to draw.
  public var drawing: String
  public var functions: [String]
  /// Whether the graphs passed `PassesViewOutput.irLimit` bytes of DOT: `text` is then
  /// their first whole lines within it, and nothing is drawn.
  public var truncated: Bool

  public init(text: String, drawing: String, functions: [String], truncated: Bool) {
    (self.text, self.drawing, self.functions, self.truncated) = (text, drawing, functions, truncated)
  }
}

extension String {
  /// The first whole lines of the text within `limit` bytes, and whether any were cut.
  public func prefix(wholeLinesWithin limit: Int) -> (text: String, truncated: Bool) {
    guard utf8.count > limit else { return (self, false) }
    let bytes = utf8.prefix(limit)
    let end = bytes.lastIndex(of: UInt8(ascii: "\n")).map { bytes.index(after: $0) } ?? bytes.startIndex
    return (String(decoding: bytes[..<end], as: UTF8.self), true)
  }
}

/// The targets the playground offers, by the short names the page and the command line take.
public enum TargetName: String, CaseIterable, Sendable {
  case x64 = "x86-64"
  case aarch64
  case riscv64
  case wasm32

  /// The LLVM triple it stands for.
  public var triple: String {
    switch self {
    case .x64: "x86_64-unknown-linux-gnu"
    case .aarch64: "aarch64-unknown-linux-gnu"
    case .riscv64: "riscv64-unknown-linux-gnu"
    case .wasm32: "wasm32-unknown-unknown"
    }
  }

  /// The LLVM spelling of its architecture, the first part of its triples.
  private var architecture: String { String(triple.prefix { $0 != "-" }) }

  /// The target `spelling` names: a short name (`aarch64`, `x86-64`), or a triple whose
  /// architecture is one of these (`aarch64-linux-gnu`, `x86_64-unknown-linux-gnu`).
  public init?(spelling: String) {
    if let named = TargetName(rawValue: spelling) {
      self = named
      return
    }
    let architecture = spelling.prefix { $0 != "-" }
    guard spelling.contains("-"), let named = Self.allCases.first(where: { $0.architecture == architecture }) else {
      return nil
    }
    self = named
  }

  /// What to hand LLVM for a target a user named: a short name's triple, else the spelling
  /// itself, a triple (LLVM knows more targets than the playground offers, and says which
  /// triples it does not know).
  public static func triple(for spelling: String) -> String {
    TargetName(rawValue: spelling)?.triple ?? spelling
  }
}

/// The sandboxed side's standard input: the source's length in decimal and a newline, the
/// source's bytes, then the program's own input. Written by `Sandbox.run`, read by the
/// sandboxed side before it seals itself.
public enum SandboxInput {
  /// The bytes the sandboxed side reads.
  public static func frame(source: [UInt8], stdin: [UInt8]) -> [UInt8] {
    Array("\(source.count)\n".utf8) + source + stdin
  }

  /// The source, read from standard input without reading past it (the rest is the
  /// program's); nil when the framing is wrong.
  public static func readSource() -> [UInt8]? {
    var header: [UInt8] = []
    var byte: UInt8 = 0
    while read(0, &byte, 1) == 1 && byte != UInt8(ascii: "\n") && header.count < 20 { header.append(byte) }
    guard byte == UInt8(ascii: "\n"), let length = Int(String(decoding: header, as: UTF8.self)), length >= 0 else {
      return nil
    }
    var source = [UInt8](repeating: 0, count: length)
    var done = 0
    while done < length {
      let count = source[done...].withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      done += count
    }
    return source
  }
}
