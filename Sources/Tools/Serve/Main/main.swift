// kaleidoscope-serve: the playground's server. Users start it as `kaleidoscope serve`, which
// checks the options (and documents them) and runs this program beside it with the path of
// the tool for the sandboxed runs.
import Foundation
import KaleidoscopePlayground

/// The options `kaleidoscope serve` passes, each as `--name value`.
func configuration(from arguments: [String]) -> Playground.Configuration? {
  var values: [String: String] = [:]
  var index = 1
  while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
    values[String(arguments[index].dropFirst(2))] = arguments[index + 1]
    index += 2
  }
  guard index == arguments.count, let tool = values["tool"] else { return nil }
  var configuration = Playground.Configuration(tool: tool)
  configuration.host = values["host"] ?? configuration.host
  configuration.port = values["port"].flatMap(Int.init) ?? configuration.port
  configuration.database = values["database"]
  configuration.workers = values["workers"].flatMap(Int.init) ?? configuration.workers
  configuration.queueLimit = values["queue"].flatMap(Int.init) ?? configuration.queueLimit
  configuration.rateLimitPerMinute = values["rate-limit"].flatMap(Int.init) ?? configuration.rateLimitPerMinute
  configuration.examples = values["examples"]
  configuration.trustedProxies = Set((values["trusted-proxies"] ?? "").split(separator: ",").map(String.init))
  return configuration
}

guard let configuration = configuration(from: CommandLine.arguments) else {
  FileHandle.standardError.write(
    Data("usage: kaleidoscope serve [--host H] [--port P] [--database D] (see kaleidoscope serve --help)\n".utf8))
  exit(64)
}
do {
  try await Playground.run(configuration)
} catch {
  FileHandle.standardError.write(Data("error: kaleidoscope serve: \(error)\n".utf8))
  exit(1)
}
