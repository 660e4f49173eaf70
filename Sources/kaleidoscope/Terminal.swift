import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// When to colour output, as users of clang and git expect.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  case auto, always, never
}

/// The `--color` option shared by commands that print diagnostics.
struct ColorOptions: ParsableArguments {
  @Option(name: .long, help: "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never.")
  var color: ColorChoice = .auto

  init() {}
}

/// Facts about the terminal and writing to the standard streams.
enum Terminal {
  /// Whether to colour what is written to standard error (see `useColor`).
  static func useColorOnStandardError(_ choice: ColorChoice) -> Bool {
    useColor(choice, descriptor: STDERR_FILENO)
  }

  /// `--color=always|never` wins; otherwise a non-empty `NO_COLOR` turns colour off,
  /// `FORCE_COLOR` turns it on, `TERM=dumb` off, and else colour is on only for a terminal.
  static func useColor(_ choice: ColorChoice, descriptor: Int32) -> Bool {
    switch choice {
    case .always: return true
    case .never: return false
    case .auto: break
    }
    if let value = environment("NO_COLOR"), !value.isEmpty { return false }
    if let value = environment("FORCE_COLOR"), !value.isEmpty, value != "0" { return true }
    if environment("TERM") == "dumb" { return false }
    return isatty(descriptor) != 0
  }

  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

  static func writeOut(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  static func writeError(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  /// Writes all of `text`, retrying after interruptions and partial writes.
  static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { write($0, to: descriptor) }
  }

  /// Writes bytes as they are (a program's text, which need not be valid UTF-8).
  static func writeOut(bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { write($0, to: STDOUT_FILENO) }
  }

  static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}
