import FoundationEssentials

/// A result's output as `Data`, which the playground's cache keeps as its bytes (a binary
/// property list): a trace is megabytes on standard error, and an array of byte numbers
/// took a second to encode.
extension Sandbox.Result {
  private enum CodingKeys: String, CodingKey {
    case exitCode, stdout, stderr, timedOut, cpuExhausted, truncated, milliseconds
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    exitCode = try container.decode(Int32.self, forKey: .exitCode)
    stdout = Array(try container.decode(Data.self, forKey: .stdout))
    stderr = Array(try container.decode(Data.self, forKey: .stderr))
    timedOut = try container.decode(Bool.self, forKey: .timedOut)
    cpuExhausted = try container.decode(Bool.self, forKey: .cpuExhausted)
    truncated = try container.decode(Bool.self, forKey: .truncated)
    milliseconds = try container.decode(Double.self, forKey: .milliseconds)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(exitCode, forKey: .exitCode)
    try container.encode(Data(stdout), forKey: .stdout)
    try container.encode(Data(stderr), forKey: .stderr)
    try container.encode(timedOut, forKey: .timedOut)
    try container.encode(cpuExhausted, forKey: .cpuExhausted)
    try container.encode(truncated, forKey: .truncated)
    try container.encode(milliseconds, forKey: .milliseconds)
  }
}
