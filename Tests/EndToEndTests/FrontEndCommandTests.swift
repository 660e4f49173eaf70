import Foundation
import Testing

/// The front-end commands (`check`, `tokens`, `ast`) run as a user runs them.
@Suite("Front-end commands")
struct FrontEndCommandTests {
  @Test("golden tokens and ast output", arguments: TestData.programs(in: "Golden"))
  func golden(name: String) throws {
    let source = TestData.path("Golden", "\(name).ks")
    for (command, suffix) in [(["tokens"], "tokens"), (["ast"], "ast"), (["ast", "--tree"], "tree")] {
      let output = try Tool.run(command + [source])
      #expect(output.status == 0, "\(command) failed: \(output.stderr)")
      TestData.expectMatchesGolden(output.stdout, "Golden", "\(name).\(suffix)")
    }
  }

  /// Each `Diagnostics/NAME.ks` has the exact standard error of `check` in `NAME.expected`;
  /// the file name in diagnostics is relative, as the test runs `check` from that directory.
  @Test("diagnostics", arguments: TestData.programs(in: "Diagnostics"))
  func diagnostics(name: String) throws {
    // Plain, `check FILE` skips the command-line parser (`PlainInvocation`); with an option
    // spelled out, the parser runs. Both must report the same.
    for options in [[], ["--color", "auto"]] {
      let output = try Tool.run(["check"] + options + ["\(name).ks"], in: TestData.path("Diagnostics", ""))
      #expect(output.status == 1)
      #expect(output.stdout.isEmpty)
      TestData.expectMatchesGolden(output.stderr, "Diagnostics", "\(name).expected")
    }
  }

  @Test func seedExampleTreeHasTheArticlesShape() throws {
    let output = try Tool.run(["ast", "--tree", "-"], stdin: "x + y * 2 + (4 + 5) / 3\n")
    #expect(output.status == 0)
    let lines = output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    // The root is '+'; below it, '+' on the left and '/' on the right.
    #expect(lines.first?.replacingOccurrences(of: "_", with: "") == "+")
    #expect(lines[2].replacingOccurrences(of: "_", with: " ").split(separator: " ") == ["+", "/"])
  }

  @Test func validProgramChecksCleanly() throws {
    let output = try Tool.run(["check", "-"], stdin: "def f(x) x * 2\nf(3)\n")
    #expect(output.status == 0)
    #expect(output.stdout.isEmpty && output.stderr.isEmpty)
  }

  @Test func standardInputIsNamedStdin() throws {
    let output = try Tool.run(["check", "-"], stdin: "def f(x) y\n")
    #expect(output.status == 1)
    #expect(output.stderr.hasPrefix("<stdin>:1:10: error: unknown variable 'y'\n"))
  }

  @Test func missingFileIsAnErrorNotACrash() throws {
    let output = try Tool.run(["check", "/nonexistent/file.ks"])
    #expect(output.status == 1)
    #expect(output.stderr == "error: cannot open '/nonexistent/file.ks': No such file or directory\n")
  }

  /// A directory is not a program: every command that reads a source says so, exit 1.
  @Test(arguments: [["run"], ["check"], ["tokens"], ["ast"], ["ir"], ["build"], ["run", "--engine", "interpreter"]])
  func aDirectoryIsAnError(command: [String]) throws {
    let directory = TestData.path("Programs", "")
    let output = try Tool.run(command + ["."], in: directory)
    #expect(output.status == 1)
    #expect(output.stdout.isEmpty)
    #expect(output.stderr == "error: cannot read '.': Is a directory\n")
  }

  @Test func loadingADirectoryInTheReplIsAnError() throws {
    let output = try Tool.run(["repl"], stdin: ":load .\n1 + 1\n", in: TestData.path("Programs", ""))
    #expect(output.stdout == "2\n")
    #expect(output.stderr == "error: cannot read '.': Is a directory\n")
  }

  @Test(arguments: [["check"], ["frobnicate"], ["check", "--no-such-flag", "x.ks"], ["ast", "--color", "purple", "-"]])
  func badUsageExitsWith64(arguments: [String]) throws {
    #expect(try Tool.run(arguments).status == 64)
  }

  /// Every command whose help is checked, and the tool itself (no command).
  static let commandsWithHelp: [[String]] = [
    ["check"], ["tokens"], ["ast"], ["ir"], ["run"], ["build"], ["repl"], ["fmt"], ["lsp"], ["dap"], [],
  ]

  @Test(arguments: commandsWithHelp)
  func helpHasExamples(command: [String]) throws {
    let output = try Tool.run(command + ["--help"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("Examples:"))
  }

  /// The prose above the examples is wrapped as paragraphs in 80 columns (the width when
  /// standard output is not a terminal): no line is longer than 79 characters, and none ends
  /// where the next line's first word would still have fitted, as a source line break inside
  /// a sentence would leave it.
  @Test(arguments: commandsWithHelp)
  func helpProseIsWrappedAsParagraphs(command: [String]) throws {
    let help = try Tool.run(command + ["--help"]).stdout
    let prose = help.components(separatedBy: "Examples:")[0]
      .split(separator: "\n", omittingEmptySubsequences: false)
      .dropFirst(2)  // OVERVIEW and the blank line after it
    let paragraphs = prose.split(separator: "", omittingEmptySubsequences: true)
    #expect(!paragraphs.isEmpty)
    for paragraph in paragraphs {
      for line in paragraph { #expect(line.count < 80, "\(command): \(line)") }
      for (line, next) in zip(paragraph, paragraph.dropFirst()) {
        let word = next.prefix { $0 != " " }
        #expect(line.count + 1 + word.count >= 80, "\(command): ragged line '\(line)'")
      }
    }
  }

  @Test func colourOnlyWhenAsked() throws {
    let plain = try Tool.run(["check", "-"], stdin: "y\n")
    #expect(!plain.stderr.contains("\u{1B}["))
    let forced = try Tool.run(["check", "--color=always", "-"], stdin: "y\n")
    #expect(forced.stderr.contains("\u{1B}[1;31merror: "))
  }

  /// A file large enough to be read into huge pages and checked in parts, with a mistake at
  /// its start, middle and end: read from a path or from standard input, the same three.
  @Test func largeFileReportsTheSameFromAPathAndFromStandardInput() throws {
    let functions = (0..<70_000).map { "def f\($0)(x y) x * y + \($0)  # \(String(repeating: "-", count: 32))\n" }
    let text =
      "def first(x) nope\n" + functions[..<35_000].joined() + "def middle(x) f1(x)\n"
      + functions[35_000...].joined() + "f2(1, 2, 3)\n"
    #expect(text.utf8.count > 4 << 20)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(getpid()).ks").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fromPath = try Tool.run(["check", path])
    let fromStdin = try Tool.run(["check", "-"], stdin: text)
    #expect(fromPath.status == 1 && fromStdin.status == 1)
    let errors = fromPath.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
    #expect(errors.map { $0.split(separator: ":")[1] } == ["1", "35002", "70003"])
    #expect(fromStdin.stderr == fromPath.stderr.replacingOccurrences(of: path, with: "<stdin>"))
  }

  @Test func deeplyNestedInputIsADiagnosticNotACrash() throws {
    let text = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
    let output = try Tool.run(["check", "-"], stdin: text)
    #expect(output.status == 1)
    #expect(output.stderr.contains("error: expression is nested too deeply"))
  }
}
