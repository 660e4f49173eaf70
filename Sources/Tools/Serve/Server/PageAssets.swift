import CPlaygroundPage
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page's files, embedded in the program by CPlaygroundPage.
enum PageAssets {
  /// One embedded file: its content type and its bytes, which live as long as the program.
  struct Asset {
    var contentType: String
    var bytes: UnsafeRawBufferPointer
  }

  static func named(_ name: String) -> Asset? {
    guard let asset = ks_page_asset_named(name) else { return nil }
    return Asset(
      contentType: String(cString: asset.pointee.content_type),
      bytes: UnsafeRawBufferPointer(start: asset.pointee.bytes, count: asset.pointee.length))
  }
}

/// CodeMirror 5, served from where Debian's libjs-codemirror installs it, never copied.
enum CodeMirrorFiles {
  static let root = "/usr/share/javascript/codemirror"

  /// The file under `root` that `path` (`/codemirror/…`) names; 404 for anything outside it.
  static func response(for path: String) async throws -> Response {
    let relative = path.dropFirst("/codemirror/".count)
    let parts = relative.split(separator: "/")
    guard !parts.isEmpty, parts.allSatisfy({ $0 != ".." && $0 != "." && !$0.hasPrefix(".") }),
      relative.hasSuffix(".js") || relative.hasSuffix(".css")
    else { return failure(.notFound, "no file '\(path)'") }
    let file = root + "/" + parts.joined(separator: "/")
    guard let bytes = FileManager.default.contents(atPath: file) else { return failure(.notFound, "no file '\(path)'") }
    var headers = HTTPFields()
    headers[.contentType] = relative.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"
    headers[.cacheControl] = "max-age=86400"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
