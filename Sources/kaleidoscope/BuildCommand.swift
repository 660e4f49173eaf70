import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFrontend
import KaleidoscopeSandbox

#if canImport(Glibc)
  import Glibc
#endif

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
      LLVM supports (see --print-targets), named by a triple (aarch64-linux-gnu) or, for the \
      playground's four, by a short name (x86-64, aarch64, riscv64, wasm32).

      Examples:
        kaleidoscope build examples/mandelbrot.ks && ./mandelbrot
        kaleidoscope build -g -O0 examples/fib.ks -o fib && gdb ./fib
        kaleidoscope build --emit obj --target aarch64-linux-gnu examples/fib.ks
        kaleidoscope build --emit asm --target riscv64 examples/fib.ks
      """
  )

  @Option(name: .short, help: ArgumentHelp("The output file (default: named after the source).", valueName: "path"))
  var output: String?

  @Option(name: .long, help: "What to write: exe, obj, asm, llvm-ir or llvm-bc.")
  var emit: EmitKind = .exe

  @Option(
    name: .long,
    help: ArgumentHelp("A target triple, or x86-64, aarch64, riscv64 or wasm32 (default: this machine).", valueName: "target"))
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
    let options = CompileOptions(
      optimization: optimization.resolved(default: .standard), forSemantics: semantics.forSemantics,
      printValues: !quiet, debugInfo: debugInfo)
    let path = output ?? emit.defaultOutput(forSource: source.name)
    let compilation = try reportingBackEndErrors {
      try Pipeline.emit(source, as: emit, target: target.map(TargetName.triple(for:)), to: path, options: options)
    }
    try DiagnosticReporter(color: color.color).product(of: compilation)
  }
}

extension String {
  func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(1, width - count))
  }
}
