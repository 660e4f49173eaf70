import Foundation
import Hummingbird
import KaleidoscopeSandbox
import NIOCore

/// The views that explain the compiler (SPEC §7): `passes` and `cfg`, computed by the
/// sandboxed view, and the `cfg` view drawn by Graphviz in a limited process of its own.
extension PlaygroundAPI {
  /// The answer to a `passes` or `cfg` view: 400 for a function the program does not
  /// define, the diagnostics alone for a program with errors.
  func explanation(_ request: Sandbox.Request) async throws -> Response {
    var limits = Sandbox.Limits()
    // The pass log carries the IR before and after each pass (`PassesViewOutput.irLimit`).
    limits.outputBytes = PassesViewOutput.irLimit * 2
    guard let result = try await sandboxed(request, limits: limits) else { return noSandbox }
    let (diagnostics, stderr) = Listing.diagnostics(in: String(decoding: result.stderr, as: UTF8.self))
    if result.exitCode == 64 && !result.timedOut {
      return failure(.badRequest, stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    if result.timedOut || result.exitCode > 1 || !stderr.isEmpty || result.truncated {
      let reason =
        result.timedOut
        ? "the view took too long and was stopped" : stderr.isEmpty ? "the view failed" : stderr
      return json(ViewResponse(text: reason, diagnostics: diagnostics, lines: []))
    }
    guard !result.stdout.isEmpty else { return json(ViewResponse(text: "", diagnostics: diagnostics, lines: [])) }
    let decoder = JSONDecoder()
    if request.view == .passes, let spliced = Self.splicing(ViewHead(diagnostics: diagnostics, lines: []), result.stdout) {
      return spliced
    }
    if request.view == .cfg, let output = try? decoder.decode(CFGViewOutput.self, from: Data(result.stdout)) {
      guard !output.drawing.isEmpty else {
        return json(
          CFGResponse(
            text: output.text, diagnostics: diagnostics, lines: [], functions: output.functions, svg: "", truncated: true))
      }
      var drawing = Sandbox.Request(source: Array(output.drawing.utf8), name: "cfg.dot")
      drawing.drawsGraph = true
      var drawingLimits = Sandbox.Limits()
      drawingLimits.outputBytes = 8 << 20
      guard let drawn = try await sandboxed(drawing, limits: drawingLimits) else { return noSandbox }
      let svg = drawn.exitCode == 0 && !drawn.truncated ? String(decoding: drawn.stdout, as: UTF8.self) : ""
      return json(
        CFGResponse(
          text: output.text, diagnostics: diagnostics, lines: [], functions: output.functions, svg: svg,
          truncated: output.truncated))
    }
    return json(ViewResponse(text: "the view failed", diagnostics: diagnostics, lines: []))
  }

  /// The passes view's answer (SPEC §7): `head`'s fields, then those of the
  /// `PassesViewOutput` the sandboxed view wrote (its text, functions, passes and whether
  /// they were cut), spliced in as they are: decoding and encoding a megabyte of IR again
  /// took most of the server's part. Nil unless `output` is a JSON object with fields.
  static func splicing(_ head: ViewHead, _ output: [UInt8]) -> Response? {
    guard output.first == UInt8(ascii: "{"), output.last == UInt8(ascii: "}"), output.count > 2,
      let encoded = try? JSON.encoder.encode(head), encoded.last == UInt8(ascii: "}")
    else { return nil }
    var bytes = ByteBuffer(bytes: encoded.dropLast())
    bytes.writeString(",")
    bytes.writeBytes(output.dropFirst())
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
  }
}
