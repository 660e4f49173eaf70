// libFuzzer entry point for IR generation: every input the front end accepts is compiled
// to LLVM IR for the whole program (with a C `main`): every definition, or for one input in
// two what `run` and executables compile (the reachable ones, internal, with the globals
// declared first as constants); verified, and — for one input in eight — optimised at -O2;
// debug information for one input in three, so that optimised inputs without it reach the
// copies of functions called with proved indices. A verifier failure is a bug in IR generation
// and crashes the fuzzer, so libFuzzer keeps the input. Nothing is executed (a generated
// program may loop forever). Built by fuzz/build.sh.
import KaleidoscopeFrontend

private let machine: TargetMachine = try! TargetMachine(optimization: .standard)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIRGeneration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let file = SourceFile(name: "fuzz.ks", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
  let result = Frontend.check(file)
  guard !result.diagnostics.hasErrors else { return 0 }
  let optimization: OptimizationLevel = size % 8 == 0 ? .standard : .none
  let selection: Pipeline.Selection = size % 2 == 0 ? .reachable : .all
  for forSemantics in ForSemantics.allCases {
    do {
      let context = Context()
      let options = CompileOptions(optimization: optimization, forSemantics: forSemantics, debugInfo: size % 3 == 0)
      _ = try Pipeline.module(
        for: result.program, in: context, for: machine, options: options, selection: selection, withMain: true)
    } catch {
      fatalError("accepted program failed to compile: \(error)")
    }
  }
  return 0
}
