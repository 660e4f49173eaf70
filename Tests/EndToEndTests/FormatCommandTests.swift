import Foundation
import Testing

/// `kaleidoscope fmt` run as a user runs it: on files, in place, as a check, as a diff and
/// on standard input.
@Suite("fmt command")
struct FormatCommandTests {
  static let unformatted = "def f(x y)x*2+y\nf( 1,2 )\n"
  static let formatted = "def f(x, y) x * 2 + y\nf(1, 2)\n"

  /// A fresh directory with `files` written in it.
  static func directory(_ name: String, _ files: [String: String]) throws -> String {
    let path = NSTemporaryDirectory() + "ks-fmt-\(getpid())-\(name)"
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (file, text) in files { try text.write(toFile: "\(path)/\(file)", atomically: false, encoding: .utf8) }
    return path
  }

  static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

  @Test func writesTheFormattedTextToStandardOutput() throws {
    let dir = try Self.directory("stdout", ["a.ks": Self.unformatted])
    let output = try Tool.run(["fmt", "a.ks"], in: dir)
    #expect(output.status == 0)
    #expect(output.stdout == Self.formatted)
    #expect(try Self.read("\(dir)/a.ks") == Self.unformatted, "fmt without -i changed the file")
  }

  @Test func readsStandardInput() throws {
    let output = try Tool.run(["fmt", "-"], stdin: Self.unformatted)
    #expect(output.status == 0)
    #expect(output.stdout == Self.formatted)
  }

  @Test func checkNamesEachUnformattedFileAndExitsOne() throws {
    let dir = try Self.directory("check", ["a.ks": Self.unformatted, "b.ks": Self.formatted, "c.ks": Self.unformatted])
    let output = try Tool.run(["fmt", "--check", "a.ks", "b.ks", "c.ks"], in: dir)
    #expect(output.status == 1)
    #expect(output.stdout == "a.ks\nc.ks\n")
    let clean = try Tool.run(["fmt", "--check", "b.ks"], in: dir)
    #expect(clean.status == 0)
    #expect(clean.stdout.isEmpty)
  }

  @Test func inPlaceRewritesOnlyWhatChangesAndKeepsThePermissions() throws {
    let dir = try Self.directory("in-place", ["a.ks": Self.unformatted, "b.ks": Self.formatted])
    chmod("\(dir)/a.ks", 0o640)
    let before = try FileManager.default.attributesOfItem(atPath: "\(dir)/b.ks")[.modificationDate] as? Date
    Thread.sleep(forTimeInterval: 0.02)
    let output = try Tool.run(["fmt", "-i", "a.ks", "b.ks"], in: dir)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.isEmpty)
    #expect(try Self.read("\(dir)/a.ks") == Self.formatted)
    let permissions = try FileManager.default.attributesOfItem(atPath: "\(dir)/a.ks")[.posixPermissions] as? Int
    #expect(permissions == 0o640)
    let after = try FileManager.default.attributesOfItem(atPath: "\(dir)/b.ks")[.modificationDate] as? Date
    #expect(before == after, "a formatted file was rewritten")
    // No temporary file is left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["a.ks", "b.ks"])
  }

  @Test func inPlaceThroughASymbolicLinkRewritesTheTarget() throws {
    let dir = try Self.directory("symlink", ["real.ks": Self.unformatted])
    try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.ks", withDestinationPath: "real.ks")
    let output = try Tool.run(["fmt", "-i", "link.ks"], in: dir)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/link.ks") == "real.ks")
    #expect(try Self.read("\(dir)/real.ks") == Self.formatted)
  }

  @Test func diffShowsWhatWouldChange() throws {
    let dir = try Self.directory("diff", ["a.ks": Self.unformatted])
    let output = try Tool.run(["fmt", "--diff", "a.ks"], in: dir)
    #expect(output.status == 0)
    #expect(
      output.stdout == """
        --- a.ks
        +++ a.ks
        @@ -1,2 +1,2 @@
        -def f(x y)x*2+y
        -f( 1,2 )
        +def f(x, y) x * 2 + y
        +f(1, 2)

        """)
    #expect(try Self.read("\(dir)/a.ks") == Self.unformatted)
  }

  /// A file with syntax errors gets the same diagnostics as `check` and is never rewritten;
  /// the other files are still formatted.
  @Test func aFileWithSyntaxErrorsIsReportedAndLeftAlone() throws {
    let broken = "def f(x) x +\nf(1\n"
    let dir = try Self.directory("errors", ["bad.ks": broken, "good.ks": Self.unformatted])
    let output = try Tool.run(["fmt", "-i", "bad.ks", "good.ks"], in: dir)
    #expect(output.status == 1)
    let check = try Tool.run(["check", "bad.ks"], in: dir)
    #expect(output.stderr == check.stderr)
    #expect(output.stderr.contains("bad.ks:2:4: error:"))
    #expect(try Self.read("\(dir)/bad.ks") == broken)
    #expect(try Self.read("\(dir)/good.ks") == Self.formatted)
  }

  @Test func aMissingFileIsReportedAndTheOthersFormatted() throws {
    let dir = try Self.directory("missing", ["a.ks": Self.unformatted])
    let output = try Tool.run(["fmt", "-i", "nope.ks", "a.ks"], in: dir)
    #expect(output.status == 1)
    #expect(output.stderr.contains("nope.ks"))
    #expect(try Self.read("\(dir)/a.ks") == Self.formatted)
  }

  @Test(arguments: [
    (["fmt"], "Missing expected argument"),
    (["fmt", "--check", "-i", "a.ks"], "exclude each other"),
    (["fmt", "-i", "-"], "cannot rewrite standard input"),
  ])
  func misuseIsRefused(arguments: [String], message: String) throws {
    let output = try Tool.run(arguments)
    #expect(output.status == 64)
    #expect(output.stderr.contains(message))
  }
}
