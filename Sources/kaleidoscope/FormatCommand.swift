import ArgumentParser
import KaleidoscopeFormat
import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope fmt`: programs in the canonical layout.
struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Format programs in the canonical layout.",
    discussion: """
      The layout is described in docs/STYLE.md: two spaces of indentation, lines of at most \
      100 columns where they can be broken, one space around binary operators, comments kept \
      where they were. Formatting never changes what a program means and formatting twice \
      changes nothing. A file with syntax errors gets its diagnostics and is left as it is.

      Without options the formatted text goes to standard output. --check names each file \
      that is not formatted, one per line, and exits with status 1 if there is one; -i \
      rewrites files in place (through a temporary file renamed over the original, keeping \
      its permissions); --diff prints what would change as a unified diff. The exit status \
      is 1 when a file has syntax errors or cannot be read.

      Examples:
        kaleidoscope fmt examples/fib.ks
        kaleidoscope fmt -i examples/*.ks
        kaleidoscope fmt --check examples/*.ks
        kaleidoscope fmt --diff examples/mandelbrot.ks
        echo 'def f(x)x*2' | kaleidoscope fmt -
      """
  )

  @Flag(help: "Name each file that is not formatted; exit with status 1 if there is one.")
  var check = false

  @Flag(name: .customShort("i"), help: "Rewrite each file in place.")
  var inPlace = false

  @Flag(help: "Print what would change, as a unified diff.")
  var diff = false

  @Argument(help: "The source files, or '-' for standard input.")
  var files: [String]

  @OptionGroup var color: ColorOptions

  func validate() throws {
    if [check, inPlace, diff].filter({ $0 }).count > 1 { throw ValidationError("--check, -i and --diff exclude each other") }
    if inPlace && files.contains("-") { throw ValidationError("-i cannot rewrite standard input") }
  }

  func run() throws {
    let reporter = DiagnosticReporter(color: color.color)
    var failed = false
    for path in files {
      // A file that cannot be read is reported, and the others are still formatted.
      guard let file = try? InputOptions.load(path) else {
        failed = true
        continue
      }
      switch Formatter.format(file) {
      case .syntaxErrors(let diagnostics):
        reporter.report(diagnostics)
        failed = true
      case .formatted(let text):
        let changed = text != file.bytes
        if check {
          if changed {
            Terminal.writeOut("\(file.name)\n")
            failed = true
          }
        } else if diff {
          Terminal.writeOut(UnifiedDiff.make(old: file.bytes, new: text, oldName: file.name, newName: file.name))
        } else if inPlace {
          if changed { try AtomicFile.replace(path, with: text) }
        } else {
          Terminal.writeOut(bytes: text)
        }
      }
    }
    if failed { throw ExitCode.failure }
  }
}

/// Rewrites a file so that it is never left half written: the new text goes to a temporary
/// file in the same directory, which then replaces the original in one `rename`.
enum AtomicFile {
  static func replace(_ givenPath: String, with bytes: [UInt8]) throws {
    // Through a symbolic link, the file it points to is replaced, not the link.
    let path =
      realpath(givenPath, nil).map { resolved in
        defer { free(resolved) }
        return String(cString: resolved)
      } ?? givenPath
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory)/.\(name).XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw failure("create a temporary file for", path) }
    let temporary = String(cString: template)
    var status = stat()
    if stat(path, &status) == 0 { fchmod(descriptor, status.st_mode & 0o7777) }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        close(descriptor)
        unlink(temporary)
        throw failure("write", path)
      }
      written += count
    }
    guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw failure("replace", path)
    }
  }

  private static func failure(_ action: String, _ path: String) -> Error {
    Terminal.writeError("error: cannot \(action) '\(path)': \(String(cString: strerror(errno)))\n")
    return ExitCode.failure
  }
}
