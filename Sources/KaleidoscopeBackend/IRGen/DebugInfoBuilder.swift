#if canImport(Glibc)
  import Glibc
#endif
import CLLVM
import KaleidoscopeFrontend

/// DWARF for a module through LLVM's DIBuilder: a compile unit for the source file, a
/// subprogram per function, a location on every expression, and parameters and `var`s as
/// variables, so a debugger can break in a function, step by line and print locals.
final class DebugInfoBuilder {
  private let reference: LLVMDIBuilderRef
  private let context: LLVMContextRef
  private let source: SourceFile
  private let file: LLVMMetadataRef
  private let doubleType: LLVMMetadataRef
  private let isOptimized: Bool
  private var subroutineTypes: [Int: LLVMMetadataRef] = [:]

  init(module: Module, source: SourceFile, isOptimized: Bool) {
    reference = LLVMCreateDIBuilder(module.reference)
    context = module.context.reference
    self.source = source
    self.isOptimized = isOptimized
    let (directory, name) = Self.split(source.name)
    file = LLVMDIBuilderCreateFile(reference, name, name.utf8.count, directory, directory.utf8.count)
    let producer = "kaleidoscope"
    _ = LLVMDIBuilderCreateCompileUnit(
      reference, LLVMDWARFSourceLanguageC, file, producer, producer.utf8.count, isOptimized ? 1 : 0,
      "", 0, 0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0)
    doubleType = LLVMDIBuilderCreateBasicType(reference, "double", 6, 64, 0x04 /* DW_ATE_float */, LLVMDIFlagZero)
    let int32 = LLVMInt32TypeInContext(context)
    LLVMAddModuleFlag(
      module.reference, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
      LLVMValueAsMetadata(LLVMConstInt(int32, UInt64(LLVMDebugMetadataVersion()), 0)))
    LLVMAddModuleFlag(
      module.reference, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
      LLVMValueAsMetadata(LLVMConstInt(int32, 5, 0)))
  }

  deinit {
    LLVMDisposeDIBuilder(reference)
  }

  /// The directory and file name of a path, the directory absolute so debuggers find it.
  private static func split(_ path: String) -> (String, String) {
    var directory = ""
    var name = path
    if let slash = path.lastIndex(of: "/") {
      directory = String(path[..<slash])
      name = String(path[path.index(after: slash)...])
    }
    if !directory.hasPrefix("/") {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
      let cwd = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
      directory = directory.isEmpty ? cwd : "\(cwd)/\(directory)"
    }
    return (directory, name)
  }

  func line(of offset: Int) -> UInt32 { UInt32(source.location(of: offset).line) }

  /// Attaches a subprogram to `function` and returns it (the scope of its locations).
  func subprogram(for function: LLVMValueRef, name: String, linkageName: String, arity: Int, at offset: Int, isLocal: Bool) -> LLVMMetadataRef {
    let type = subroutineType(arity: arity)
    let line = line(of: offset)
    let subprogram = LLVMDIBuilderCreateFunction(
      reference, file, name, name.utf8.count, linkageName, linkageName.utf8.count, file, line, type,
      isLocal ? 1 : 0, 1, line, LLVMDIFlagPrototyped, isOptimized ? 1 : 0)!
    LLVMSetSubprogram(function, subprogram)
    return subprogram
  }

  private func subroutineType(arity: Int) -> LLVMMetadataRef {
    if let type = subroutineTypes[arity] { return type }
    var types: [LLVMMetadataRef?] = Array(repeating: doubleType, count: arity + 1)
    let type = LLVMDIBuilderCreateSubroutineType(reference, file, &types, UInt32(types.count), LLVMDIFlagZero)!
    subroutineTypes[arity] = type
    return type
  }

  /// A source location in `scope` for the byte offset.
  func location(at offset: Int, in scope: LLVMMetadataRef) -> LLVMMetadataRef {
    let location = source.location(of: offset)
    return LLVMDIBuilderCreateDebugLocation(context, UInt32(location.line), UInt32(location.column), scope, nil)
  }

  /// Describes a local's stack slot: a parameter (`argument` ≥ 1) or a variable.
  func declare(_ storage: LLVMValueRef, name: String, argument: Int?, at offset: Int, in scope: LLVMMetadataRef, block: LLVMBasicBlockRef) {
    let variable: LLVMMetadataRef
    if let argument {
      variable = LLVMDIBuilderCreateParameterVariable(
        reference, scope, name, name.utf8.count, UInt32(argument), file, line(of: offset), doubleType, 1, LLVMDIFlagZero)
    } else {
      variable = LLVMDIBuilderCreateAutoVariable(
        reference, scope, name, name.utf8.count, file, line(of: offset), doubleType, 1, LLVMDIFlagZero, 0)
    }
    let expression = LLVMDIBuilderCreateExpression(reference, nil, 0)
    _ = LLVMDIBuilderInsertDeclareRecordAtEnd(reference, storage, variable, expression, location(at: offset, in: scope), block)
  }

  func finalize() {
    LLVMDIBuilderFinalize(reference)
  }
}
