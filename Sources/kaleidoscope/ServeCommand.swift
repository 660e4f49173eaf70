import ArgumentParser

#if canImport(Glibc)
  import Glibc
#endif

/// `kaleidoscope serve`: the web playground. The server is a program of its own,
/// `kaleidoscope-serve`, installed beside this one (it needs Foundation and SwiftNIO, which
/// this tool's start-up-minded link leaves out; docs/DESIGN.md); this command checks the
/// options and runs it, passing the path of this tool for the sandboxed runs.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Start the web playground: an editor, every stage of the compiler, sandboxed runs.",
    discussion: """
      Open the address in a browser. Every run and every view runs in a sandboxed process \
      (2 s of CPU, 5 s in all, 256 MiB, 64 KiB of output; no files, network or processes). \
      Shared snippets are kept in SQLite, by default in \
      $XDG_DATA_HOME/kaleidoscope/snippets.sqlite (~/.local/share when unset), or in \
      PostgreSQL with --database postgresql://USER@HOST/DB, which several servers can share. \
      SIGTERM or Ctrl-C stops the server after the requests in flight (at most 10 s). \
      Several servers behind a load balancer: scripts/cluster.sh and docs/DEPLOY.md.

      Examples:
        kaleidoscope serve
        kaleidoscope serve --host 0.0.0.0 --port 9000 --database /var/lib/ks/snippets.sqlite
        kaleidoscope serve --database postgresql://ks@localhost/playground
        kaleidoscope serve --trusted-proxy 127.0.0.1    (behind HAProxy on this machine)
      """
  )

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"
  @Option(help: "The port to listen on (0: any free port, printed at start).")
  var port = 8080
  @Option(help: ArgumentHelp("An SQLite file, or a postgresql:// URL.", valueName: "path-or-url"))
  var database: String?
  @Option(help: "How many sandboxes may run at once (default: two per core).")
  var workers: Int?
  @Option(help: "How many requests may wait for a sandbox before the server answers 503.")
  var queue = 64
  @Option(help: "Requests a minute allowed from one client before it is answered 429 (0: no limit).")
  var rateLimit = 600
  @Option(
    help: ArgumentHelp(
      "A proxy's address whose X-Forwarded-For names the client, for the rate limit (repeatable).",
      valueName: "address"))
  var trustedProxy: [String] = []

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("the port must be 0 to 65535, not \(port)") }
    if let workers, workers < 1 { throw ValidationError("--workers must be at least 1") }
    guard queue >= 0, rateLimit >= 0 else { throw ValidationError("--queue and --rate-limit cannot be negative") }
    for address in trustedProxy where address.isEmpty || address.contains(",") || address.contains(" ") {
      throw ValidationError("--trusted-proxy takes one address, not '\(address)'")
    }
  }

  func run() throws {
    let tool = Self.executablePath()
    let directory = tool.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let server = "\(directory)/kaleidoscope-serve"
    var arguments = [
      server, "--tool", tool, "--host", host, "--port", "\(port)", "--queue", "\(queue)",
      "--rate-limit", "\(rateLimit)",
    ]
    if let database { arguments += ["--database", database] }
    if let workers { arguments += ["--workers", "\(workers)"] }
    if !trustedProxy.isEmpty { arguments += ["--trusted-proxies", trustedProxy.joined(separator: ",")] }
    let argv = arguments.map { strdup($0) } + [nil]
    execv(server, argv)
    let reason = String(cString: strerror(errno))
    Terminal.writeError("error: cannot start the playground's server '\(server)': \(reason)\n")
    if errno == ENOENT {
      Terminal.writeError("note: build it beside this tool: swift build -c release --product kaleidoscope-serve\n")
    }
    throw ExitCode.failure
  }

  /// The absolute path of this executable.
  static func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
