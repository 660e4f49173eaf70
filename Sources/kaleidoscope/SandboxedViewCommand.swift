import ArgumentParser
import KaleidoscopeBackend
import KaleidoscopeFormat
import KaleidoscopeFrontend
import KaleidoscopeSandbox

/// `kaleidoscope sandboxed-view` (hidden): the playground's panes. It reads a program as
/// `run --sandboxed` does, limits and seals itself before the front end sees a byte, and
/// prints one view of it, with every diagnostic of the whole front end, so that no input can
/// hang or crash the server that asked.
struct SandboxedViewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: Sandbox.viewCommand, abstract: "Print a view of a program, sandboxed (the playground).",
    shouldDisplay: false)

  @Option(help: "tokens, ast, ir, asm, passes or cfg.")
  var view: View
  @Option(help: "The target of the asm view: a triple or a short name (x86-64, aarch64, riscv64, wasm32).")
  var target: String?
  @Option(help: "For the passes and cfg views: only this function.")
  var function: String?
  @Flag(help: "For the cfg view: the machine code of --target, not the IR.")
  var asm = false
  @Flag(help: "For the ir view: a diff from the IR at -O0 to the IR at the level asked for.")
  var diff = false
  @OptionGroup var optimization: OptimizationOption
  @OptionGroup var sandbox: SandboxOptions
  @OptionGroup var color: ColorOptions
  @Argument(help: "The name diagnostics give the source.")
  var name = "<stdin>"

  func run() throws {
    var request = Sandbox.ChildView(name: name, view: view)
    (request.target, request.function, request.graphsMachineCode) = (target, function, asm)
    (request.diffFromUnoptimized, request.optimization) = (diff, optimization.level)
    (request.cpuSeconds, request.memoryBytes) = (sandbox.cpuSeconds, sandbox.memoryBytes)
    request.jsonDiagnostics = sandbox.jsonDiagnostics
    try Self.show(request, color: color.color)
  }

  /// Prints the view `request` asks for; its command line is read by `PlainInvocation` (the
  /// server's) or by this command.
  static func show(_ request: Sandbox.ChildView, color: ColorChoice) throws {
    guard let source = SandboxInput.readSource() else {
      Terminal.writeError("error: sandbox: expected the source's length and bytes on standard input\n")
      throw ExitCode.validationFailure
    }
    // LLVM's pass log needs a file, which the sealed process could not open.
    var logFile: PassLogFile?
    SandboxedRun.enter(
      cpuSeconds: request.cpuSeconds, memoryBytes: request.memoryBytes, reserved: 0, opening: PassLogFile.descriptors
    ) {
      if request.view == .passes { logFile = PassLogFile() }
    }
    let file = SourceFile(name: request.name, bytes: source)
    let reporter = DiagnosticReporter(color: color, json: request.jsonDiagnostics)
    let checked = Pipeline.check(file)
    let level = { (fallback: OptimizationLevel) in request.optimization.flatMap(OptimizationLevel.init) ?? fallback }
    // Debug locations let the page link each source line to its IR and assembly.
    let options = CompileOptions(optimization: level(.none), debugInfo: true)
    let target = request.target
    var text = ""
    switch request.view {
    case .tokens:
      text = TokenListing.render(Lexer.tokenize(file), in: file)
    case .ast:
      text = ASTDump.render(LargeStack.run { Parser.parse(file) }.tree)
    case .ir where !checked.diagnostics.hasErrors && request.diffFromUnoptimized:
      text = try reportingBackEndErrors { try Self.optimizationDiff(of: checked.program, options: options) }
    case .ir where !checked.diagnostics.hasErrors:
      text = try reportingBackEndErrors { try Pipeline.ir(of: checked.program, options: options) }
    case .asm where !checked.diagnostics.hasErrors:
      let triple = target.map(TargetName.triple(for:))
      text = try reportingBackEndErrors { try Pipeline.assembly(of: checked.program, target: triple, options: options) }
    case .passes where !checked.diagnostics.hasErrors:
      var plain = options
      (plain.debugInfo, plain.optimization) = (false, level(.standard))
      text = try explaining {
        try ExplainViews.passes(of: checked.program, options: plain, function: request.function, logFile: logFile!)
      }
    case .cfg where !checked.diagnostics.hasErrors:
      var plain = options
      plain.debugInfo = false
      let triple = request.graphsMachineCode ? target.map(TargetName.triple(for:)) ?? TargetName.x64.triple : nil
      text = try explaining {
        try ExplainViews.controlFlowGraphs(of: checked.program, options: plain, target: triple, function: request.function)
      }
    case .ir, .asm, .passes, .cfg:
      break
    }
    Terminal.writeOut(text)
    if reporter.report(checked.diagnostics) { throw ExitCode.failure }
  }

  /// `work`'s view, or the exit that tells the server the request was bad: status 64 and
  /// the reason for a function the program does not define.
  private static func explaining(_ work: () throws -> String) throws -> String {
    do {
      return try reportingBackEndErrors(work)
    } catch let unknown as ExplainViews.UnknownFunction {
      Terminal.writeError("no function '\(unknown.name)' in the program\n")
      throw ExitCode(64)
    }
  }

  /// The IR at -O0 and at `options`' level, without debug information (its metadata would
  /// differ on every line), as a unified diff with every line for context; empty when the
  /// two are the same.
  static func optimizationDiff(of program: CheckedProgram, options: CompileOptions) throws -> String {
    var plain = options
    plain.debugInfo = false
    var unoptimized = plain
    unoptimized.optimization = .none
    let before = Array(try Pipeline.ir(of: program, options: unoptimized).utf8)
    let after = Array(try Pipeline.ir(of: program, options: plain).utf8)
    let everyLine = before.count + after.count
    return UnifiedDiff.make(
      old: before, new: after, oldName: "-O0", newName: "-O\(options.optimization.rawValue)", context: everyLine)
  }
}
