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
