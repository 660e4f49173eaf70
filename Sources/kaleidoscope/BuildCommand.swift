#if canImport(Glibc)
  import Glibc
#endif
import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend

extension EmitKind: ExpressibleByArgument {}

/// `kaleidoscope build`: native executables and object files.
struct BuildCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract: "Compile a program to a native executable, an object file, assembly or LLVM IR.",
    discussion: """
      The executable runs the top-level expressions in order and prints exactly what \
      `kaleidoscope run` prints for the same file and flags. It is linked with the C \
      compiler on the machine ($CC, cc, clang or gcc), with the runtime and libm. With \
      --target, objects (--emit obj|asm|llvm-ir|llvm-bc) can be made for any target this \
      LLVM supports (see --print-targets), e.g. aarch64-linux-gnu or wasm32-unknown-unknown.

      Examples:
        kaleidoscope build examples/mandelbrot.ks && ./mandelbrot
        kaleidoscope build -g -O0 examples/fib.ks -o fib && gdb ./fib
        kaleidoscope build --emit obj --target aarch64-linux-gnu examples/fib.ks
      """
  )

  @Option(name: .short, help: ArgumentHelp("The output file (default: named after the source).", valueName: "path"))
  var output: String?

  @Option(name: .long, help: "What to write: exe, obj, asm, llvm-ir or llvm-bc.")
  var emit: EmitKind = .exe

  @Option(name: .long, help: ArgumentHelp("The target triple (default: this machine).", valueName: "triple"))
  var target: String?

  @Flag(name: .customLong("print-targets"), help: "List the targets this build of LLVM supports, and exit.")
  var printTargets = false

  @Flag(name: .customShort("g"), help: "Generate DWARF debug information.")
  var debugInfo = false

  @Flag(name: .short, help: "Do not print the values of top-level expressions, as `run -q`.")
  var quiet = false

  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var semantics: SemanticsOptions

  @Argument(help: "The source file, or '-' for standard input.")
  var file: String?

  @OptionGroup var color: ColorOptions

  func validate() throws {
    if !printTargets && file == nil { throw ValidationError("missing the source file") }
    if target != nil && emit == .exe {
      throw ValidationError("--target makes objects, not executables: add --emit obj, asm, llvm-ir or llvm-bc")
    }
  }

  func run() throws {
    if printTargets {
      Terminal.writeOut(LLVMTargets.available.map { "  \($0.name.padding(12)) \($0.description)\n" }.joined())
      return
    }
    let source = try InputOptions(file: file!).load()
    let program = try Driver.check(source, color: color.color)
    let outputPath = output ?? emit.defaultOutput(forSource: source.name)
    let level = optimization.resolved(default: .standard)
    let options = CodeGenOptions(forSemantics: semantics.forSemantics, printValues: !quiet)
    try Driver.backEnd {
      let machine = try TargetMachine(triple: target, optimization: level)
      let context = Context()
      let module = try ProgramCompiler.compile(
        program, in: context, for: machine, options: options, optimization: level,
        selection: emit == .exe ? .reachable : .all, withMain: true, debugInfo: debugInfo)
      if emit != .exe {
        try ObjectEmitter.write(module, kind: emit, to: outputPath, machine: machine)
        return
      }
      let work = try TemporaryDirectory()
      let object = "\(work.path)/program.o"
      try ObjectEmitter.write(module, kind: .obj, to: object, machine: machine)
      try Linker.link(object: object, output: outputPath, workDirectory: work.path)
    }
  }

}

extension String {
  func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(1, width - count))
  }
}

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
