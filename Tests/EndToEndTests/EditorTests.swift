import Foundation
import Testing

/// A real editor on the language server: Neovim (Debian's 0.7, `scripts/install-deps.sh`
/// installs it) runs `Tests/Editors/neovim.lua` headless with its built-in LSP client. The
/// script opens a file, waits for the diagnostics, hovers, jumps to a definition, applies a
/// quick fix, renames and formats, checking each step.
@Suite("Editors")
struct EditorTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Editors/neovim.lua").path

  @Test func neovimDrivesTheLanguageServer() throws {
    let directory = NSTemporaryDirectory() + "ks-nvim-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try """
    # The Fibonacci numbers.
    def fib(n)  if n < 3 then 1 else fib(n-1)+fib(n-2)
    fib(10)
    fib( 2 ) + fib(3)
    fob(5)

    """.write(toFile: "\(directory)/fib.ks", atomically: true, encoding: .utf8)
    let nvim = try Tool.run(
      ["--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile \(Self.script)", "fib.ks"],
      environment: ["KALEIDOSCOPE": Tool.executable.path, "HOME": directory, "XDG_STATE_HOME": directory],
      executable: URL(fileURLWithPath: "/usr/bin/nvim"), in: directory)
    #expect(nvim.status == 0, "\(nvim.stdout)\(nvim.stderr)")
    #expect(nvim.stdout.hasSuffix("ok: done\n"), "\(nvim.stdout)\(nvim.stderr)")
    #expect(nvim.stdout.components(separatedBy: "ok: ").count == 13, "every step ran: \(nvim.stdout)")
  }
}
