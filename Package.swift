// swift-tools-version: 6.1
//
// The Kaleidoscope toolchain. The targets follow the compiler's architecture:
//
//   CLLVM                    the LLVM 19 C API (system library: module map + shim header)
//   CEditLine                libedit, for the REPL's line editing and history (system library)
//   KaleidoscopeRuntime      the C runtime shared by the JIT, the interpreter and executables
//   KaleidoscopeFrontend     source, diagnostics, lexer, AST, parser, sema (no LLVM, no runtime)
//   KaleidoscopeInterpreter  the reference interpreter, over the front end and the runtime
//   KaleidoscopeBackend      the LLVM wrapper, IR generation, optimisation, JIT, object emission,
//                            tiered execution and the pipeline
//   KaleidoscopeFormat       the formatter (`fmt`, and the language server's formatting)
//   KaleidoscopeLSP          the language server (`lsp`)
//   KaleidoscopeDAP          the debug adapter (`dap`): the interpreter under a debugger
//   CSandbox                 the sandbox's limits and seccomp filter (C, with libseccomp)
//   KaleidoscopeSandbox      a run or a view in a sandboxed process, and what crosses to it
//   CPlaygroundPage          the playground's page, embedded (C23 #embed)
//   KaleidoscopePlayground   the playground's HTTP server, snippet stores and API
//   kaleidoscope-serve       the playground's server program, which `kaleidoscope serve` starts
//   kaleidoscope             the command-line tool: a thin layer of subcommands over the libraries
//   TestSupport              what the test targets share: the program generator, FileCheck, ...
// and the test targets FrontendTests, BackendTests, FormatTests, LSPTests, PlaygroundTests and
// EndToEndTests.
import Foundation
import PackageDescription

/// Debian's llvm-19-dev has no pkg-config file, so the paths are spelled out here.
let llvmInclude = "/usr/lib/llvm-19/include"
let llvmLibrary = "/usr/lib/llvm-19/lib"
let llvmConfig = "/usr/lib/llvm-19/bin/llvm-config"

/// Every Swift target that imports CLLVM (directly or through the back end) needs the headers.
let llvmSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I\(llvmInclude)"])]

/// The LLVM components the back end uses: the JIT, the optimiser, bitcode and textual IR, and
/// every target (for `kaleidoscope build --target`).
let llvmComponents = ["orcjit", "passes", "bitwriter", "irreader", "all-targets"]

/// Copies of LLVM's libraries whose static constructors the tool runs itself, when it first
/// needs LLVM or the other targets (`build-support/lazy-llvm.sh`), when the set is there.
let lazyLLVM = Context.packageDirectory + "/.build/lazy-llvm"
let lazyLLVMComplete = FileManager.default.fileExists(atPath: lazyLLVM + "/complete")

/// LLVM's static component libraries, as `llvm-config --link-static --libs` lists them.
///
/// Linking them instead of libLLVM-19.so keeps only the code the tool uses and, in an
/// executable that is not position-independent, leaves the dynamic loader nothing to relocate;
/// relocating the shared library took most of the tool's start-up. When llvm-config is
/// missing, the shared library is used instead.
let llvmStaticLibraries: [String]? = {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: llvmConfig)
  process.arguments = ["--link-static", "--libs"] + llvmComponents
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  let flags = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
  return flags.map { flag in
    let archive = "lib\(flag.dropFirst(2)).a"
    let lazy = "\(lazyLLVM)/\(archive)"
    return lazyLLVMComplete && FileManager.default.fileExists(atPath: lazy) ? lazy : "\(llvmLibrary)/\(archive)"
  }
}()

/// Links LLVM: its static libraries as one group (they refer to each other in cycles) plus
/// the system libraries they need, or else libLLVM-19.so with an rpath.
let llvmLinkerSettings: [LinkerSetting] = {
  guard let archives = llvmStaticLibraries else {
    return [
      .unsafeFlags(["-L\(llvmLibrary)", "-Xlinker", "-rpath", "-Xlinker", llvmLibrary]),
      .linkedLibrary("LLVM-19"),
      .linkedLibrary("m"),
    ]
  }
  let group = ["--start-group"] + archives + ["--end-group", "-lz", "-l:libzstd.so.1", "-lstdc++"]
  return [.unsafeFlags(group.flatMap { ["-Xlinker", $0] }), .linkedLibrary("m")]
}()

/// The release tool's link: the Swift runtime linked in and no position-independent
/// executable, so that starting it costs almost no dynamic relocation. `-static-stdlib` also
/// exports the executable's own symbols (not its libraries'), which is how the JIT's
/// process-symbol generator and the interpreter's `dlsym` find the runtime's `putchard` and
/// `printd`; debug builds export them with `--export-dynamic`. FoundationEssentials (used by
/// swift-argument-parser) needs its two helper libraries named when it is linked statically.
///
/// Two more tricks make the release tool start faster; build-support/README.md says what each
/// buys today: the start-up code laid out together (`section-order.txt`, skipped when
/// missing) and static archives instead of shared libraries (`static-libraries/`, skipped
/// unless every link leads to an archive).
let buildSupport = Context.packageDirectory + "/build-support"
let sectionOrder = buildSupport + "/section-order.txt"
let staticLibraries = buildSupport + "/static-libraries"
let releaseLinkFlags: [String] = {
  var flags = [
    "-static-stdlib", "-Xclang-linker", "-no-pie",
    "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
  ]
  if FileManager.default.fileExists(atPath: sectionOrder) {
    flags += ["-Xlinker", "--section-ordering-file=\(sectionOrder)"]
  }
  // Only when every link leads to an archive; libedit's own dependencies are named, as its
  // shared library would have brought them.
  let archives = ["stdc++", "edit", "tinfo", "bsd", "md", "z", "seccomp"]
  if archives.allSatisfy({ FileManager.default.fileExists(atPath: "\(staticLibraries)/lib\($0).a") }) {
    flags += ["-L", staticLibraries, "-Xlinker", "-ltinfo", "-Xlinker", "-lbsd", "-Xlinker", "-lmd"]
  }
  return flags
}()

let toolLinkerSettings: [LinkerSetting] =
  llvmLinkerSettings + [
    .unsafeFlags(releaseLinkFlags, .when(configuration: .release)),
    .unsafeFlags(["-Xlinker", "--export-dynamic"], .when(configuration: .debug)),
  ]

let package = Package(
  name: "Kaleidoscope",
  products: [
    .executable(name: "kaleidoscope", targets: ["kaleidoscope"]),
    .executable(name: "kaleidoscope-serve", targets: ["kaleidoscope-serve"]),
    .library(name: "KaleidoscopeFrontend", targets: ["KaleidoscopeFrontend"]),
    .library(name: "KaleidoscopeInterpreter", targets: ["KaleidoscopeInterpreter"]),
    .library(name: "KaleidoscopeBackend", targets: ["KaleidoscopeBackend"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // The playground's server and its two snippet stores. Hummingbird's default traits
    // (swift-configuration, full Foundation) are not needed.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // SHA-256 for the playground's result cache, and its metrics in Prometheus's format.
    .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Graceful shutdown on SIGTERM: the server and the database client as one service group.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    .systemLibrary(name: "CLLVM", path: "Sources/CLLVM"),
    // No pkg-config: its -L/usr/lib/x86_64-linux-gnu would come before static-libraries.
    .systemLibrary(name: "CEditLine", path: "Sources/CEditLine"),
    .target(
      name: "KaleidoscopeRuntime",
      path: "Sources/KaleidoscopeRuntime",
      // runtime_source.c uses C23 #embed to carry runtime.c's text for `kaleidoscope build`.
      cSettings: [.unsafeFlags(["-std=gnu2x", "-O2"])],
      linkerSettings: [.linkedLibrary("m"), .linkedLibrary("pthread")]
    ),
    // The sandbox's seccomp filter is built with libseccomp (Debian's libseccomp-dev).
    .target(name: "CSandbox", path: "Sources/CSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
    .target(name: "KaleidoscopeSandbox", dependencies: ["KaleidoscopeFrontend"], path: "Sources/Tools/Sandbox"),
    .target(
      name: "KaleidoscopeFrontend",
      // The parser and checker are classes and structs mutated in tight loops, where Swift's
      // dynamic exclusivity checks take a large share of the time (docs/DESIGN.md). Static
      // checks still apply.
      swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
    ),
    // The interpreter mutates its frames and arrays in the same tight loops. It is optimised
    // in debug builds too: the machine stack an interpreted call takes must hold the
    // language's call depth limit (SPEC §3), and unoptimised frames are ten times larger.
    .target(
      name: "KaleidoscopeInterpreter",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeRuntime"],
      swiftSettings: [
        .unsafeFlags(["-enforce-exclusivity=unchecked"]), .unsafeFlags(["-O"], .when(configuration: .debug)),
      ]
    ),
    // The tools, each over the front end: the formatter and the language server.
    .target(
      name: "KaleidoscopeFormat",
      dependencies: ["KaleidoscopeFrontend"],
      path: "Sources/Tools/Format",
      // The printer is a class whose state changes at every token; as in the front end,
      // dynamic exclusivity checks would take a large share of the time.
      swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
    ),
    // The language server.
    .target(
      name: "KaleidoscopeLSP",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeFormat"],
      path: "Sources/Tools/LSP"
    ),
    // The debug adapter (`dap`): the interpreter under a debugger, over the language
    // server's message framing.
    .target(
      name: "KaleidoscopeDAP",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeInterpreter", "KaleidoscopeRuntime", "KaleidoscopeLSP"],
      path: "Sources/Tools/DAP"
    ),
    // The playground: an HTTP server over the sandbox, with its page embedded (CPlaygroundPage).
    .target(
      name: "CPlaygroundPage", path: "Sources/Tools/Serve/Page", exclude: ["assets"],
      cSettings: [.unsafeFlags(["-std=gnu2x"])]),
    .target(
      name: "KaleidoscopePlayground",
      dependencies: [
        "KaleidoscopeSandbox", "KaleidoscopeFrontend", "CPlaygroundPage",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Sources/Tools/Serve/Server"
    ),
    // `kaleidoscope serve` runs this program, which lives beside the tool: the server needs
    // Foundation and SwiftNIO, which the tool's static start-up link leaves out (DESIGN.md).
    .executableTarget(
      name: "kaleidoscope-serve",
      dependencies: ["KaleidoscopePlayground"],
      path: "Sources/Tools/Serve/Main"
    ),
    .target(
      name: "KaleidoscopeBackend",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeInterpreter", "KaleidoscopeRuntime", "CLLVM"],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: llvmLinkerSettings
    ),
    .executableTarget(
      name: "kaleidoscope",
      dependencies: [
        "KaleidoscopeFrontend", "KaleidoscopeInterpreter", "KaleidoscopeBackend", "KaleidoscopeFormat", "KaleidoscopeLSP",
        "KaleidoscopeDAP", "KaleidoscopeRuntime",
        "KaleidoscopeSandbox", "CEditLine", "CSandbox",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: toolLinkerSettings
    ),
    // What the test targets share: a seedable random number generator, the program
    // generator, marked sources, FileCheck.
    .target(name: "TestSupport", dependencies: ["KaleidoscopeFrontend"], path: "Tests/TestSupport"),
    .testTarget(
      name: "FrontendTests",
      dependencies: ["KaleidoscopeFrontend", "KaleidoscopeInterpreter", "KaleidoscopeRuntime", "TestSupport"],
      exclude: ["Regressions"]
    ),
    .testTarget(
      name: "BackendTests",
      dependencies: [
        "KaleidoscopeBackend", "KaleidoscopeFrontend", "KaleidoscopeInterpreter", "KaleidoscopeRuntime", "TestSupport",
      ],
      swiftSettings: llvmSwiftSettings,
      linkerSettings: llvmLinkerSettings
    ),
    .testTarget(
      name: "FormatTests",
      dependencies: ["KaleidoscopeFormat", "KaleidoscopeFrontend", "TestSupport"],
      exclude: ["Style"]
    ),
    .testTarget(
      name: "LSPTests",
      dependencies: ["KaleidoscopeLSP", "KaleidoscopeFrontend", "TestSupport"]
    ),
    .testTarget(
      name: "PlaygroundTests",
      dependencies: ["KaleidoscopePlayground", "KaleidoscopeFrontend", "kaleidoscope", "kaleidoscope-serve"]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["kaleidoscope", "TestSupport"],
      exclude: ["Programs", "Golden", "Diagnostics", "IR", "Interactive", "Examples"]
    ),
  ]
)
