import KaleidoscopeRuntime

#if canImport(Glibc)
  import Glibc
#endif

/// Links executables with the C compiler found on the machine: the program's object, the
/// runtime (compiled from the source the tool carries) and libm.
public enum Linker {
  /// Candidates, in order: the system's `cc`, then clang (the Swift toolchain ships one),
  /// then gcc. `$CC` overrides.
  static let candidates = ["cc", "clang", "gcc", "/opt/swift/usr/bin/clang"]

  /// The C compiler to use, or `nil` if there is none.
  public static func findCompiler() -> String? {
    if let override = getenv("CC").map({ String(cString: $0) }), !override.isEmpty { return override }
    for candidate in candidates {
      if candidate.hasPrefix("/") {
        if access(candidate, X_OK) == 0 { return candidate }
        continue
      }
      let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
      for directory in path.split(separator: ":") where access("\(directory)/\(candidate)", X_OK) == 0 {
        return "\(directory)/\(candidate)"
      }
    }
    return nil
  }

  /// Links `object` into the executable `output`.
  public static func link(object: String, output: String, workDirectory: String) throws {
    guard let compiler = findCompiler() else {
      throw BackendError.system(
        "no C compiler found to link with (tried $CC, \(candidates.joined(separator: ", "))); install one with: apt-get install -y gcc"
      )
    }
    let runtimeSource = "\(workDirectory)/kaleidoscope_runtime.c"
    try Subprocess.writeFile(runtimeSource, contents: String(cString: ks_runtime_source()))
    try Subprocess.writeFile("\(workDirectory)/KaleidoscopeRuntime.h", contents: String(cString: ks_runtime_header()))
    // The runtime is compiled without debug information: a debugger should step over it,
    // and mixing the C compiler's DWARF with LLVM's confuses gdb's address ranges.
    let arguments = [compiler, "-O2", "-w", "-o", output, object, runtimeSource, "-lm"]
    let (status, errors) = try Subprocess.run(arguments)
    guard status == 0 else {
      throw BackendError.system(
        "linking with \(compiler) failed:\n\(String(errors.reversed().drop(while: \.isNewline).reversed()))")
    }
  }
}
