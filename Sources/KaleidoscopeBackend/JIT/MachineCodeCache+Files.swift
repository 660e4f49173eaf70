import Glibc

/// The cache's files: the directory made private, entries read whole and written
/// atomically, and the oldest removed when the cache grows past its capacity.
extension MachineCodeCache {
  /// Makes `directory` and its missing parents, each private (0700), as the XDG base
  /// directory specification asks of a cache's.
  static func makeDirectory(_ directory: String) -> Bool {
    var status = stat()
    if stat(directory, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
    if let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
      guard makeDirectory(String(directory[..<slash])) else { return false }
    }
    return mkdir(directory, 0o700) == 0 || errno == EEXIST
  }

  /// Whether anything is at `path`.
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  /// Whether `directory` is the user's own directory and no one else can write it.
  static func isPrivate(_ directory: String) -> Bool {
    var status = stat()
    guard stat(directory, &status) == 0 else { return false }
    return (status.st_mode & S_IFMT) == S_IFDIR && status.st_uid == geteuid() && status.st_mode & 0o022 == 0
  }

  /// The whole of the file at `path`, or nil.
  static func read(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
    let size = Int(status.st_size)
    var bytes = [UInt8](repeating: 0, count: size)
    let complete = bytes.withUnsafeMutableBytes { buffer in
      var done = 0
      while done < size {
        let count = Glibc.read(descriptor, buffer.baseAddress! + done, size - done)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      return true
    }
    return complete ? bytes : nil
  }

  /// Writes `bytes` to a new file beside `path`, then renames it to `path`.
  static func write(_ bytes: [UInt8], to path: String) -> Bool {
    var template = Array((path + ".XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return false }
    let temporary = String(cString: template)
    let written = bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let count = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      return true
    }
    guard close(descriptor) == 0, written, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  /// If the cache holds more than `capacity`, removes entries (objects and programs' loops
  /// alike), least recently used first, down to three quarters of it; and removes what
  /// writers that died left (`write`'s new files, never renamed), an hour on.
  func trim() {
    var entries: [(path: String, size: Int, used: Int)] = []
    guard let listing = opendir(directory) else { return }
    let anHourAgo = time(nil) - 3600
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      let path = "\(directory)/\(name)"
      var status = stat()
      guard name.contains(".o") || name.contains(".loops"), stat(path, &status) == 0 else { continue }
      if name.hasSuffix(".o") || name.hasSuffix(".loops") {
        entries.append((path, Int(status.st_size), status.st_mtim.tv_sec))
      } else if status.st_mtim.tv_sec < anHourAgo {
        unlink(path)
      }
    }
    closedir(listing)
    var total = entries.reduce(0) { $0 + $1.size }
    guard total > capacity else { return }
    for entry in entries.sorted(by: { $0.used < $1.used }) where total > capacity / 4 * 3 {
      if unlink(entry.path) == 0 { total -= entry.size }
    }
  }
}
