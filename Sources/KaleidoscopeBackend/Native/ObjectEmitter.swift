import CLLVM

#if canImport(Glibc)
  import Glibc
#endif

/// What `kaleidoscope build` writes.
public enum EmitKind: String, Sendable, CaseIterable {
  case exe, obj, asm
  case llvmIR = "llvm-ir"
  case llvmBC = "llvm-bc"

  /// The file name suffix for an output named after the source.
  public var defaultSuffix: String {
    switch self {
    case .exe: ""
    case .obj: ".o"
    case .asm: ".s"
    case .llvmIR: ".ll"
    case .llvmBC: ".bc"
    }
  }
}

extension EmitKind {
  /// What `build` writes when no output is named, as clang and swiftc name it: after the
  /// source with its extension replaced (`fib.ks` gives `fib`, `fib.o`, `fib.s`, `fib.ll`,
  /// `fib.bc`), in the current directory. An executable from a source without an extension
  /// is `a.out`, so that it never overwrites the source; standard input is `a.out`, `a.o`, ...
  /// (clang writes `-.o`, which other tools then read as an option).
  public func defaultOutput(forSource name: String) -> String {
    let base = name == "<stdin>" ? "" : String(name.split(separator: "/").last ?? "")
    let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
    if self == .exe { return stem.isEmpty || stem == base ? "a.out" : stem }
    return (stem.isEmpty ? "a" : stem) + defaultSuffix
  }
}

/// Writes a module as an object file, assembly, textual IR or bitcode.
public enum ObjectEmitter {
  public static func write(_ module: Module, kind: EmitKind, to path: String, machine: TargetMachine) throws {
    switch kind {
    case .llvmIR:
      var message: UnsafeMutablePointer<CChar>?
      if LLVMPrintModuleToFile(module.reference, path, &message) != 0 {
        throw BackendError.system("cannot write '\(path)': \(takeMessage(message))")
      }
    case .llvmBC:
      if LLVMWriteBitcodeToFile(module.reference, path) != 0 {
        throw BackendError.system("cannot write '\(path)'")
      }
    case .obj, .exe, .asm:
      _ = innermostLoopsAligned
      alignFunctions(of: module.reference)
      var message: UnsafeMutablePointer<CChar>?
      let fileType = kind == .asm ? LLVMAssemblyFile : LLVMObjectFile
      let failed = path.withCString { name in
        LLVMTargetMachineEmitToFile(machine.reference, module.reference, UnsafeMutablePointer(mutating: name), fileType, &message)
          != 0
      }
      let text = takeMessage(message)
      if failed { throw BackendError.system("cannot write '\(path)': \(text)") }
    }
  }
}

extension ObjectEmitter {
  /// `module` compiled by `machine` into an object file in memory (what the JIT links).
  static func object(of module: Module, machine: TargetMachine) throws -> LLVMMemoryBufferRef {
    try emit(module.reference, as: LLVMObjectFile, machine: machine)
  }

  /// A module compiled by `machine` into a buffer the caller owns.
  private static func emit(
    _ module: LLVMModuleRef, as fileType: LLVMCodeGenFileType, machine: TargetMachine
  ) throws -> LLVMMemoryBufferRef {
    alignFunctions(of: module)
    var message: UnsafeMutablePointer<CChar>?
    var output: LLVMMemoryBufferRef?
    if LLVMTargetMachineEmitToMemoryBuffer(machine.reference, module, fileType, &message, &output) != 0 {
      throw BackendError.llvm(takeMessage(message))
    }
    return output!
  }

  /// Starts every function `module` defines on a 64-byte boundary, a cache line and a whole
  /// fetch window. At LLVM's 16 bytes, where a small hot function's calls and returns fell
  /// against those boundaries depended on whatever code came before it, so an unrelated
  /// change elsewhere moved the speed of a recursive function such as fib by several percent
  /// (BENCHMARKS.md); aligned, it no longer depends on its neighbours.
  private static func alignFunctions(of module: LLVMModuleRef) {
    var function = LLVMGetFirstFunction(module)
    while let current = function {
      if LLVMIsDeclaration(current) == 0 { LLVMSetAlignment(current, 64) }
      function = LLVMGetNextFunction(current)
    }
  }

  /// Starts every innermost loop of what `build` writes on a 64-byte boundary, on x86. At
  /// LLVM's 16, where a branchy inner loop's blocks fell against the cache lines depended on
  /// the code before it: a bubble sort's, the same instructions as clang's for its C twin,
  /// spanned three lines where C's spanned two, and ran far slower. The option is LLVM's and
  /// the whole process's, so it is set only here, which `run` and the REPL never reach: in
  /// the tiers the padding made fannkuch's modules slower (docs/DESIGN.md).
  private static let innermostLoopsAligned: Void = LLVMOptions.set([
    "-x86-experimental-pref-innermost-loop-alignment=6"
  ])

  /// `module` compiled by `machine` into assembly text.
  public static func assembly(of module: Module, machine: TargetMachine) throws -> String {
    let output = try emit(module.reference, as: LLVMAssemblyFile, machine: machine)
    defer { LLVMDisposeMemoryBuffer(output) }
    let start = LLVMGetBufferStart(output)!
    return String(decoding: UnsafeRawBufferPointer(start: start, count: LLVMGetBufferSize(output)), as: UTF8.self)
  }

  /// The assembly LLVM generates for IR `text` (the REPL's `:asm`): parsed into a fresh
  /// context, compiled by `machine`, returned as text.
  public static func assembly(ofIR text: String, machine: TargetMachine) throws -> String {
    let module = try Module(parsing: text, context: Context())
    let output = try emit(module.reference, as: LLVMAssemblyFile, machine: machine)
    defer { LLVMDisposeMemoryBuffer(output) }
    let start = LLVMGetBufferStart(output)!
    return String(decoding: UnsafeRawBufferPointer(start: start, count: LLVMGetBufferSize(output)), as: UTF8.self)
  }
}
