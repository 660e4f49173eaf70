import CLLVM
import KaleidoscopeFrontend
import TestSupport
import Testing

@testable import KaleidoscopeBackend

/// A tiered module that contains a loop compiled by an earlier module calls that code
/// (`callCompiledLoop`) rather than compile the loop again, matched by FileCheck in its
/// unoptimised IR.
@Suite("Calls to compiled loops")
struct CompiledLoopCallTests {
  static let nest = """
    var total = 0
    def fill(n) for i = 0, i < n in for j = 0, j < n in total = total + i * j
    fill(4)
    """

  /// What a module makes of `fill`: its outer loop's continuation, for usual frames or
  /// general, or `fill` itself; its inner loop compiled before as `tier.loop.inner`.
  enum Made { case usualContinuation, generalContinuation, function }

  static func module(_ made: Made, innerMayDecline: Bool) throws -> String {
    let result = Pipeline.check(SourceFile(name: "test.ks", text: nest))
    try #require(!result.diagnostics.hasErrors)
    let program = result.program
    let bodyIndex = try #require(program.bodyIndex(ofFunction: "fill"))
    let body = program.bodies[bodyIndex]
    let (outer, inner) = (try #require(body.loops.first), try #require(body.loops.last))
    guard case .loop(let innerIndex) = program.tree[inner] else { preconditionFailure("a loop") }
    let compiled = CompiledLoop(symbol: "tier.loop.inner", body: bodyIndex, mayDecline: innerMayDecline)
    return try LargeStack.run { () throws -> String in
      let module = Module(name: "tier", context: Context())
      let generator = IRGenerator(
        program: program, module: module, options: CompileOptions(optimization: .none),
        linking: .tiered(copies: [], loops: [innerIndex: compiled]), unresolved: [])
      switch made {
      case .function: generator.emitDefinition(body)
      case .usualContinuation, .generalContinuation:
        generator.emitLoopContinuation(
          named: "tier.loop.outer", loop: outer, of: body, forUsualFrames: made == .usualContinuation)
      }
      generator.emitLoopFallbacks()
      try module.verify()
      return module.text
    }
  }

  /// The outer loop's code, made for usual frames, passes the frame in cells to the inner
  /// loop's code and reads back what the inner loop assigns (the global `total` is not a
  /// local; the counter `j` ends with its loop): nothing else. It has assumed what the inner
  /// loop's code assumes (`n` whole, the depth far from the limit), so it needs no fallback.
  @Test func anOuterLoopCallsItsInnerLoopsCode() throws {
    let ir = try Self.module(.usualContinuation, innerMayDecline: true)
    let checks = """
      CHECK-LABEL: define i32 @tier.loop.outer(ptr %0, i32 %depth)
      CHECK: %cells = alloca [6 x double]
      CHECK: {{^}}loop:
      CHECK: [[CELL:%[0-9]+]] = getelementptr double, ptr %cells, i64 0
      CHECK: store double {{%.*}}, ptr [[CELL]]
      CHECK: %ran = call i32 @tier.loop.inner(ptr %cells, i32 %depth)
      CHECK-NOT: load double, ptr {{%[0-9]+}}
      CHECK: %nextvar
      CHECK-LABEL: {{^}}}
      CHECK: declare i32 @tier.loop.inner(ptr, i32)
      CHECK-NOT: fallback
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }

  /// The outer loop's general code has assumed nothing of its frame, so a frame the inner
  /// loop's code declines runs the loop's general continuation, emitted in this module
  /// unoptimised; code that declines nothing (a loop's general code) needs none.
  @Test(arguments: [true, false])
  func aFrameTheInnerLoopsCodeDeclinesRunsAFallback(mayDecline: Bool) throws {
    let ir = try Self.module(.generalContinuation, innerMayDecline: mayDecline)
    let withFallback = """
      CHECK-LABEL: define i32 @tier.loop.outer(ptr %0, i32 %depth)
      CHECK: %ran = call i32 @tier.loop.inner(ptr %cells, i32 %depth)
      CHECK: icmp eq i32 %ran, 0
      CHECK: {{^}}loop.declined:
      CHECK: call i32 @tier.loop.inner.fallback(ptr %cells, i32 %depth)
      CHECK: define internal i32 @tier.loop.inner.fallback(ptr %0, i32 %depth) #[[ATTRIBUTES:[0-9]+]]
      CHECK: attributes #[[ATTRIBUTES]] = { noinline optnone }
      """
    let without = """
      CHECK-LABEL: define i32 @tier.loop.outer(ptr %0, i32 %depth)
      CHECK: %ran = call i32 @tier.loop.inner(ptr %cells, i32 %depth)
      CHECK-NOT: fallback
      """
    #expect(try FileCheck.failure(of: ir, checks: mayDecline ? withFallback : without) == nil)
  }

  /// A function compiles its loops again: the constants its calls may pass make them
  /// cheaper, once inlined, than a call to code made for any frame.
  @Test func aFunctionCompilesItsLoopsAgain() throws {
    let ir = try Self.module(.function, innerMayDecline: true)
    let checks = """
      CHECK-LABEL: define double @tier.fill(double %n, i32 %depth)
      CHECK-NOT: tier.loop.inner
      CHECK: store double %nextvar, ptr %j.addr
      CHECK-NOT: tier.loop.inner
      """
    #expect(try FileCheck.failure(of: ir, checks: checks) == nil)
  }
}
