// swift-tools-version: 6.1
//
// The Kaleidoscope toolchain. The targets follow the compiler's architecture:
//
//   CLLVM                  the LLVM 19 C API (system library: module map + shim header)
//   KaleidoscopeRuntime    the C runtime shared by the JIT, the interpreter and executables
//   KaleidoscopeFrontend   source, diagnostics, lexer, AST, parser, sema, interpreter (no LLVM)
//   KaleidoscopeBackend    the LLVM wrapper, IR generation, optimisation, JIT, object emission
//   CEditLine              libedit, for the REPL's line editing and history (system library)
//   kaleidoscope           the command-line tool: a thin layer of subcommands over the libraries
import PackageDescription

/// Debian's llvm-19-dev has no pkg-config file, so the paths are spelled out here.
let llvmInclude = "/usr/lib/llvm-19/include"
let llvmLibrary = "/usr/lib/llvm-19/lib"

/// Every Swift target that imports CLLVM (directly or through the back end) needs the headers.
let llvmSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I\(llvmInclude)"])]

/// Link libLLVM-19.so with an rpath, and export the executable's symbols so that the JIT's
/// process-symbol generator finds the C library and libm through it.
let llvmLinkerSettings: [LinkerSetting] = [
  .unsafeFlags([
    "-L\(llvmLibrary)", "-Xlinker", "-rpath", "-Xlinker", llvmLibrary, "-Xlinker", "--export-dynamic",
  ]),
  .linkedLibrary("LLVM-19"),
  .linkedLibrary("m"),
]

let package = Package(
  name: "Kaleidoscope",
  products: [
    .executable(name: "kaleidoscope", targets: ["kaleidoscope"]),
    .library(name: "KaleidoscopeFrontend", targets: ["KaleidoscopeFrontend"]),
    .library(name: "KaleidoscopeBackend", targets: ["KaleidoscopeBackend"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    .systemLibrary(name: "CLLVM", path: "Sources/CLLVM"),
    .systemLibrary(name: "CEditLine", path: "Sources/CEditLine", pkgConfig: "libedit"),
    .target(
      name: "KaleidoscopeRuntime",
      path: "Sources/KaleidoscopeRuntime",
      // runtime_source.c uses C23 #embed to carry runtime.c's text for `kaleidoscope build`.
      cSettings: [.unsafeFlags(["-std=gnu2x", "-O2"])],
      linkerSettings: [.linkedLibrary("m"), .linkedLibrary("pthread")]
    ),
    .target(
      name: "KaleidoscopeFrontend",
      dependencies: ["KaleidoscopeRuntime"],
      // The parser and checker are classes and structs mutated in tight loops; Swift's dynamic
      // exclusivity checks cost a third of the front end's time (docs/BENCHMARKS.md). Static
      // checks still apply.
      swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
    ),
    .target(
      name: "KaleidoscopeBackend",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeRuntime", "CLLVM"],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: llvmLinkerSettings
    ),
    .executableTarget(
      name: "kaleidoscope",
      dependencies: [
        "KaleidoscopeFrontend", "KaleidoscopeBackend", "KaleidoscopeRuntime", "CEditLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: llvmLinkerSettings
    ),
    .testTarget(
      name: "FrontendTests",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeRuntime"],
      exclude: ["Regressions"]
    ),
    .testTarget(
      name: "BackendTests",
      dependencies: ["KaleidoscopeBackend", "KaleidoscopeFrontend"],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: llvmLinkerSettings
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["kaleidoscope"],
      exclude: ["Programs", "Golden", "Diagnostics", "IR", "Interactive"]
    ),
  ]
)
