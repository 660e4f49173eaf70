import KaleidoscopeBackend
import Testing

/// `build` without `-o` names its output after the source, as clang and swiftc do.
@Suite("Output names")
struct OutputNameTests {
  @Test(
    arguments: [
      ("fib.ks", EmitKind.exe, "fib"), ("fib.ks", .obj, "fib.o"), ("fib.ks", .asm, "fib.s"),
      ("fib.ks", .llvmIR, "fib.ll"), ("fib.ks", .llvmBC, "fib.bc"),
      ("examples/fib.k", .exe, "fib"), ("examples/fib.k", .obj, "fib.o"),
      ("dir.v2/prog", .exe, "a.out"), ("dir.v2/prog", .obj, "prog.o"),
      ("<stdin>", .exe, "a.out"), ("<stdin>", .obj, "a.o"), ("<stdin>", .asm, "a.s"), ("<stdin>", .llvmIR, "a.ll"),
    ])
  func defaultOutput(source: String, kind: EmitKind, expected: String) {
    #expect(kind.defaultOutput(forSource: source) == expected)
  }
}
