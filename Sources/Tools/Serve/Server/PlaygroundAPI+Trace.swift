import Foundation
import Hummingbird
import KaleidoscopeSandbox
import NIOCore

/// `POST /api/trace` (SPEC §8): a run recorded step by step in the sandbox, for the page's
/// stepper.
extension PlaygroundAPI {
  /// The most steps a trace records, and the default.
  static let traceStepLimit = 20_000

  func trace(_ body: TraceRequest) async throws -> Response {
    let maxSteps = body.maxSteps ?? Self.traceStepLimit
    guard (1...Self.traceStepLimit).contains(maxSteps) else {
      return failure(.badRequest, "'maxSteps' must be 1 to \(Self.traceStepLimit)")
    }
    var request = Sandbox.Request(source: Array(body.source.utf8), name: "main.ks")
    request.stdin = Array((body.stdin ?? "").utf8)
    request.tier = .interp
    request.traceSteps = maxSteps
    request.jsonDiagnostics = true
    var limits = Sandbox.Limits()
    // The trace is on standard error; the program's output keeps the run's limit.
    limits.errorBytes = 8 << 20
    guard let result = try await sandboxed(request, limits: limits) else { return noSandbox }
    let (steps, stepsTruncated, errors) = Self.splitTrace(from: result.stderr)
    let (diagnostics, stderr) = Listing.diagnostics(in: String(decoding: errors, as: UTF8.self))
    let rest = TraceResponse(
      stdout: String(decoding: result.stdout, as: UTF8.self), stderr: stderr, diagnostics: diagnostics,
      exitCode: result.exitCode, timedOut: result.timedOut, truncated: stepsTruncated || result.truncated)
    // The steps are spliced in as the sandbox wrote them: decoding and encoding 20,000 steps
    // again would take longer than recording them.
    let encoded = (try? JSON.encoder.encode(rest)) ?? Data("{}".utf8)
    var bytes = ByteBuffer(string: #"{"steps":"#)
    bytes.writeBytes(steps)
    if encoded.count > 2 { bytes.writeString(",") }
    bytes.writeBytes(encoded.dropFirst())
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
  }
}

extension PlaygroundAPI {
  /// The trace's line out of the sandbox's standard error (`Sandbox.traceMarker`, then
  /// `{"steps":[…],"truncated":BOOL}` as the tool wrote it): the steps' JSON, whether they
  /// were cut, and the rest of standard error. Bytes, not text: a trace is megabytes.
  static func splitTrace(from stderr: [UInt8]) -> (steps: ArraySlice<UInt8>, truncated: Bool, rest: [UInt8]) {
    let marker = Array(Sandbox.traceMarker.utf8)
    let prefix = Array(#"{"steps":"#.utf8)
    let suffix = Array(#","truncated":"#.utf8)
    let none = Array("[]".utf8)[...]
    guard let start = stderr.firstRange(of: marker) else { return (none, false, stderr) }
    let lineEnd = stderr[start.upperBound...].firstIndex(of: UInt8(ascii: "\n")) ?? stderr.endIndex
    let line = stderr[start.upperBound..<lineEnd]
    let rest = Array(stderr[..<start.lowerBound]) + stderr[min(lineEnd + 1, stderr.endIndex)...]
    guard line.starts(with: prefix), let tail = line.lastRange(of: suffix) else { return (none, false, rest) }
    let truncated = line[tail.upperBound...].starts(with: "true".utf8)
    return (line[(line.startIndex + prefix.count)..<tail.lowerBound], truncated, rest)
  }
}

/// `POST /api/trace`.
struct TraceRequest: Decodable {
  var source: String
  var stdin: String?
  /// 1 to 20,000; 20,000 when absent.
  var maxSteps: Int?
}

/// The answer to `POST /api/trace`, but for its steps.
struct TraceResponse: Encodable {
  var stdout: String
  var stderr: String
  var diagnostics: [DiagnosticEntry]
  var exitCode: Int32
  var timedOut: Bool
  /// The run had more steps than `maxSteps` (or its output was cut).
  var truncated: Bool
}
