import Foundation
import TestSupport
import Testing

/// `kaleidoscope build`: debug information a real debugger uses, and cross-target objects.
@Suite("build")
struct BuildTests {
  static let llvmBin = "/usr/lib/llvm-19/bin"

  private func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "ks-build-\(getpid())-\(name)"
  }

  private func fibSource() throws -> String {
    let path = temporary("fib.ks")
    try """
    # fib with a var, for the debugger
    def fib(n)
      var half = n / 2 in
        if n < 3 then 1 else fib(n - 1) + fib(n - 2)
    fib(12)

    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// One gdb batch session on the fib program (`program`: gdb's trailing arguments): break
  /// in fib, run, `next`, print the parameter and the `var`.
  private func debugFib(pendingBreakpoint: Bool = false, program: [String]) throws {
    let setup = pendingBreakpoint ? ["-ex", "set breakpoint pending on"] : []
    let commands = ["-ex", "break fib", "-ex", "run", "-ex", "next", "-ex", "print n", "-ex", "print half", "-ex", "kill"]
    let gdb = try Tool.runExecutable("/usr/bin/gdb", arguments: ["-q", "-batch"] + setup + commands + program)
    #expect(gdb.stdout.contains("Breakpoint 1, fib (n=12) at "), "\(gdb.stdout)\(gdb.stderr)")
    #expect(gdb.stdout.contains("fib.ks:3\n"), "stops at the first line of the body: \(gdb.stdout)")
    #expect(gdb.stdout.contains("\n4\t"), "next moves to line 4: \(gdb.stdout)")
    #expect(gdb.stdout.contains("$1 = 12\n"))
    #expect(gdb.stdout.contains("$2 = 6\n"))
  }

  /// From standard input, the executable is `a.out` in the current directory, as clang's.
  @Test func buildFromStandardInputWritesAOut() throws {
    let directory = temporary("stdin")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let build = try Tool.run(["build", "-"], stdin: "6 * 7\n", in: directory)
    try #require(build.status == 0, "\(build.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["a.out"])
    #expect(try Tool.runExecutable(directory + "/a.out").stdout == "42\n")
  }

  @Test func gdbBreaksStepsAndPrintsAParameter() throws {
    let source = try fibSource()
    let executable = temporary("fib-g")
    defer { try? FileManager.default.removeItem(atPath: executable) }
    let build = try Tool.run(["build", "-g", "-O0", source, "-o", executable])
    try #require(build.status == 0, "\(build.stderr)")
    try debugFib(program: [executable])
  }

  @Test func gdbDebugsJITCodeOfRunG() throws {
    let source = try fibSource()
    // fib is JIT'd after start-up: the breakpoint is pending until the JIT registers it.
    try debugFib(pendingBreakpoint: true, program: ["--args", Tool.executable.path, "run", "-g", "-O0", source])
  }

  /// A program with a global number, a global array, an array parameter and a local array;
  /// `counts` holds only whole numbers and is never passed, which without `-g` would keep
  /// it as integers (DESIGN.md): with `-g` it holds the doubles DWARF describes.
  private func dataSource() throws -> String {
    let path = temporary("data.ks")
    try """
    var total = 2.5, values[] = [1, 2, 3], counts[] = [4, 5]
    def sum(a[] n)
      var s = 0 in
        (for i = 0, i < n in s = s + a[i]) + s + counts[1]
    def scratch()
      var tmp[] = [7, 8] in
        tmp[0] + tmp[1]
    sum(values, 3) + scratch()

    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// gdb prints a global number by name and an array's elements with `*a.data@a.length`
  /// (docs/DESIGN.md), for globals, parameters and locals.
  private func debugData(pendingBreakpoint: Bool = false, program: [String]) throws {
    let setup = pendingBreakpoint ? ["-ex", "set breakpoint pending on"] : []
    let commands = [
      "break sum", "run", "print total", "print *values.data@values.length", "print *a.data@a.length", "print n",
      "break 7", "continue", "print *tmp.data@tmp.length", "print *counts.data@counts.length", "kill",
    ].flatMap { ["-ex", $0] }
    let gdb = try Tool.runExecutable("/usr/bin/gdb", arguments: ["-q", "-batch"] + setup + commands + program)
    #expect(gdb.stdout.contains("sum (a=..., n=3) at "), "\(gdb.stdout)\(gdb.stderr)")
    #expect(gdb.stdout.contains("$1 = 2.5\n"))
    #expect(gdb.stdout.contains("$2 = {1, 2, 3}\n"))
    #expect(gdb.stdout.contains("$3 = {1, 2, 3}\n"))
    #expect(gdb.stdout.contains("$4 = 3\n"))
    #expect(gdb.stdout.contains("$5 = {7, 8}\n"))
    #expect(gdb.stdout.contains("$6 = {4, 5}\n"))
  }

  @Test func gdbPrintsGlobalsAndArraysOfAnExecutable() throws {
    let source = try dataSource()
    let executable = temporary("data-g")
    defer { try? FileManager.default.removeItem(atPath: executable) }
    let build = try Tool.run(["build", "-g", "-O0", source, "-o", executable])
    try #require(build.status == 0, "\(build.stderr)")
    try debugData(program: [executable])
  }

  @Test func gdbPrintsGlobalsAndArraysOfJITCode() throws {
    try debugData(pendingBreakpoint: true, program: ["--args", Tool.executable.path, "run", "-g", "-O0", try dataSource()])
  }

  @Test func runGDoesNotChangeResults() throws {
    let source = try fibSource()
    #expect(try Tool.run(["run", "-g", source]).stdout == "144\n")
    #expect(try Tool.run(["run", "-g", "-O0", source]).stdout == "144\n")
  }

  @Test func dwarfHasSubprogramsAndVariables() throws {
    let source = try fibSource()
    let object = temporary("fib.o")
    defer { try? FileManager.default.removeItem(atPath: object) }
    #expect(try Tool.run(["build", "-g", "--emit", "obj", source, "-o", object]).status == 0)
    let dump = try Tool.runExecutable("\(Self.llvmBin)/llvm-dwarfdump", arguments: ["--debug-info", object])
    let text = dump.stdout.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\t", with: "")
    #expect(text.contains("DW_TAG_subprogram\nDW_AT_low_pc"), "\(dump.stdout)")
    #expect(text.contains("DW_AT_decl_line(2)"), "fib is declared on line 2")
    #expect(text.contains("DW_AT_name(\"fib\")"))
    #expect(text.contains("DW_TAG_formal_parameter"))
    #expect(text.contains("DW_AT_name(\"n\")"))
    #expect(text.contains("DW_TAG_variable"))
    #expect(text.contains("DW_AT_name(\"half\")"))
  }

  @Test func debugInfoDoesNotChangeResults() throws {
    let source = try fibSource()
    let plain = temporary("plain")
    let debug = temporary("debug")
    defer { for path in [plain, debug] { try? FileManager.default.removeItem(atPath: path) } }
    #expect(try Tool.run(["build", source, "-o", plain]).status == 0)
    #expect(try Tool.run(["build", "-g", source, "-o", debug]).status == 0)
    #expect(try Tool.runExecutable(plain).stdout == "144\n")
    #expect(try Tool.runExecutable(debug).stdout == "144\n")
  }

  /// Each under `timeout`: a target whose static constructors had not run
  /// (`llvmConstructorsWaitForTheirFirstUse`) made LLVM loop forever.
  @Test(
    "objects for other targets",
    arguments: [
      ("aarch64-linux-gnu", "Arch: aarch64"), ("riscv64-linux-gnu", "Arch: riscv64"),
      ("wasm32-unknown-unknown", "Arch: wasm32"), ("armv7-linux-gnueabihf", "Arch: arm"),
      ("powerpc64le-linux-gnu", "Arch: powerpc64le"), ("s390x-linux-gnu", "Arch: s390x"),
    ])
  func crossTarget(triple: String, arch: String) throws {
    let source = try fibSource()
    let object = temporary("\(triple).o")
    defer { try? FileManager.default.removeItem(atPath: object) }
    let build = try Tool.run(
      ["60", Tool.executable.path, "build", "--emit", "obj", "--target", triple, source, "-o", object],
      executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    try #require(build.status == 0, "\(build.stderr)")
    let headers = try Tool.runExecutable("\(Self.llvmBin)/llvm-readobj", arguments: ["--file-headers", object])
    #expect(headers.stdout.contains(arch))
  }

  /// LLVM's static constructors do not run at every start but at the first use of LLVM, and
  /// the other targets' at the first `build --target` (build-support/lazy-llvm.sh moves them
  /// into `ks_llvm_init` and `ks_lazy_init`); every test that compiles, and the cross-target
  /// objects above, show that they still run.
  @Test func llvmConstructorsWaitForTheirFirstUse() throws {
    let sections = try Tool.runExecutable("\(Self.llvmBin)/llvm-readobj", arguments: ["--sections", Tool.executable.path])
    for section in ["ks_llvm_init", "ks_lazy_init"] {
      #expect(
        sections.stdout.contains("Name: \(section) "),
        "no \(section): the tool was linked without build-support/lazy-llvm.sh's libraries; run it, then build again")
    }
  }

  /// RISC-V Linux objects use the hard-float ABI of Debian's libraries (lp64d), as clang's do:
  /// doubles in FP registers, not calls to soft-float helpers.
  @Test func riscvObjectsUseTheHardFloatABI() throws {
    let object = temporary("riscv.o")
    defer { try? FileManager.default.removeItem(atPath: object) }
    let build = try Tool.run(
      ["build", "--emit", "obj", "--target", "riscv64-linux-gnu", "-", "-o", object], stdin: "def f(x) x * 2 + 1\n")
    try #require(build.status == 0, "\(build.stderr)")
    let headers = try Tool.runExecutable("\(Self.llvmBin)/llvm-readobj", arguments: ["--file-headers", object])
    #expect(headers.stdout.contains("EF_RISCV_FLOAT_ABI_DOUBLE"), "\(headers.stdout)")
    let code = try Tool.runExecutable("\(Self.llvmBin)/llvm-objdump", arguments: ["-d", object])
    #expect(code.stdout.contains("fadd.d") || code.stdout.contains("fmadd.d"), "\(code.stdout)")
    #expect(!code.stdout.contains("__adddf3"))
  }

  @Test func unknownTargetIsAClearError() throws {
    let output = try Tool.run(["build", "--emit", "obj", "--target", "no-such-triple", "-"], stdin: "1")
    #expect(output.status == 1)
    #expect(output.stderr.hasPrefix("error: unknown target 'no-such-triple'"))
    #expect(output.stderr.contains("--print-targets"))
  }

  @Test func aMissingLinkerIsAClearError() throws {
    let output = try Tool.run(
      ["build", "-", "-o", temporary("never")], stdin: "1", environment: ["CC": "/nonexistent/cc"])
    #expect(output.status == 1)
    #expect(output.stderr == "error: cannot run /nonexistent/cc: No such file or directory\n")
  }

  /// Executables and object files start every function on a 64-byte boundary, as the JIT's
  /// code does (`FunctionAlignmentTests`).
  @Test func writtenCodeStartsEachFunctionOnA64ByteBoundary() throws {
    let path = temporary("aligned.s")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let program = "def f(x) x * 2\ndef g(x) f(x) + 1\ng(1)\n"
    #expect(try Tool.run(["build", "-O2", "--emit", "asm", "-", "-o", path], stdin: program).status == 0)
    let assembly = try String(contentsOfFile: path, encoding: .utf8)
    let checks = """
      CHECK: .p2align 6
      CHECK-NEXT: .type f,@function
      CHECK: .p2align 6
      CHECK-NEXT: .type g,@function
      """
    #expect(try FileCheck.failure(of: assembly, checks: checks) == nil)
  }

  @Test(arguments: ["asm", "llvm-ir", "llvm-bc"])
  func otherEmitKinds(kind: String) throws {
    let path = temporary("out.\(kind)")
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try Tool.run(["build", "--emit", kind, "-", "-o", path], stdin: "def f(x) x\nf(1)\n").status == 0)
    let contents = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(!contents.isEmpty)
    if kind == "llvm-bc" { #expect(contents.prefix(2) == Data("BC".utf8)) }
    if kind == "llvm-ir" { #expect(String(decoding: contents, as: UTF8.self).contains("define double @f(double")) }
  }
}
