#if canImport(Glibc)
  import Glibc
#endif

/// A directory under /tmp removed with its contents when released.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/kaleidoscope-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw BackendError.system("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    path = String(cString: created)
  }

  deinit {
    if let directory = opendir(path) {
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink("\(path)/\(name)") }
      }
      closedir(directory)
    }
    rmdir(path)
  }
}
