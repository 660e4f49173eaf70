import CLLVM
import KaleidoscopeFrontend

#if canImport(Glibc)
  import Glibc
#endif

/// DWARF for a module through LLVM's DIBuilder: a compile unit for the source file, a
/// subprogram per function, a location on every expression, and parameters, `var`s and
/// globals as variables, so a debugger can break in a function, step by line and print them.
///
/// A number is a `double`. An array is a structure `{ double *data; unsigned long length; }`,
/// so gdb prints its elements with `print *a.data@a.length` (docs/DESIGN.md).
final class DebugInfoBuilder {
  private let reference: LLVMDIBuilderRef
  private let context: LLVMContextRef
  private let source: SourceFile
  private let file: LLVMMetadataRef
  private let compileUnit: LLVMMetadataRef
  private let doubleType: LLVMMetadataRef
  private let arrayType: LLVMMetadataRef
  private let isOptimized: Bool
  private var subroutineTypes: [[NameKind]: LLVMMetadataRef] = [:]

  init(module: Module, source: SourceFile, isOptimized: Bool) {
    reference = LLVMCreateDIBuilder(module.reference)
    context = module.context.reference
    self.source = source
    self.isOptimized = isOptimized
    let (directory, name) = Self.split(source.name)
    file = LLVMDIBuilderCreateFile(reference, name, name.utf8.count, directory, directory.utf8.count)
    let producer = "kaleidoscope"
    compileUnit = LLVMDIBuilderCreateCompileUnit(
      reference, LLVMDWARFSourceLanguageC, file, producer, producer.utf8.count, isOptimized ? 1 : 0,
      "", 0, 0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0)
    let floatEncoding: UInt32 = 0x04  // DW_ATE_float
    doubleType = LLVMDIBuilderCreateBasicType(reference, "double", 6, 64, floatEncoding, LLVMDIFlagZero)
    arrayType = Self.arrayType(reference, file: file, double: doubleType)
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

  /// `struct array { double *data; unsigned long length; }`, as the IR's `{ ptr, i64 }`.
  private static func arrayType(_ builder: LLVMDIBuilderRef, file: LLVMMetadataRef, double: LLVMMetadataRef) -> LLVMMetadataRef {
    let data = LLVMDIBuilderCreatePointerType(builder, double, 64, 0, 0, "", 0)
    let unsignedEncoding: UInt32 = 0x07  // DW_ATE_unsigned
    let length = LLVMDIBuilderCreateBasicType(builder, "unsigned long", 13, 64, unsignedEncoding, LLVMDIFlagZero)
    var members: [LLVMMetadataRef?] = [
      LLVMDIBuilderCreateMemberType(builder, file, "data", 4, file, 0, 64, 64, 0, LLVMDIFlagZero, data),
      LLVMDIBuilderCreateMemberType(builder, file, "length", 6, file, 0, 64, 64, 64, LLVMDIFlagZero, length),
    ]
    return LLVMDIBuilderCreateStructType(
      builder, file, "array", 5, file, 0, 128, 64, LLVMDIFlagZero, nil, &members, 2, 0, nil, "array", 5)!
  }

  private func type(of kind: NameKind) -> LLVMMetadataRef {
    kind == .number ? doubleType : arrayType
  }

  func line(of offset: Int) -> UInt32 { UInt32(source.location(of: offset).line) }

  /// Attaches a subprogram to `function` and returns it (the scope of its locations).
  func subprogram(
    for function: LLVMValueRef, name: String, linkageName: String, parameters: [NameKind], at offset: Int, isLocal: Bool
  ) -> LLVMMetadataRef {
    let type = subroutineType(parameters)
    let line = line(of: offset)
    let subprogram = LLVMDIBuilderCreateFunction(
      reference, file, name, name.utf8.count, linkageName, linkageName.utf8.count, file, line, type,
      isLocal ? 1 : 0, 1, line, LLVMDIFlagPrototyped, isOptimized ? 1 : 0)!
    LLVMSetSubprogram(function, subprogram)
    return subprogram
  }

  private func subroutineType(_ parameters: [NameKind]) -> LLVMMetadataRef {
    if let type = subroutineTypes[parameters] { return type }
    var types: [LLVMMetadataRef?] = [doubleType] + parameters.map { self.type(of: $0) }
    let type = LLVMDIBuilderCreateSubroutineType(reference, file, &types, UInt32(types.count), LLVMDIFlagZero)!
    subroutineTypes[parameters] = type
    return type
  }

  /// Describes a global variable.
  func global(_ value: LLVMValueRef, name: String, kind: NameKind, at offset: Int, isLocal: Bool) {
    let expression = LLVMDIBuilderCreateExpression(reference, nil, 0)
    let variable = LLVMDIBuilderCreateGlobalVariableExpression(
      reference, compileUnit, name, name.utf8.count, name, name.utf8.count, file, line(of: offset), type(of: kind),
      isLocal ? 1 : 0, expression, nil, 0)
    LLVMGlobalSetMetadata(value, LLVMGetMDKindIDInContext(context, "dbg", 3), variable)
  }

  /// A source location in `scope` for the byte offset.
  func location(at offset: Int, in scope: LLVMMetadataRef) -> LLVMMetadataRef {
    let location = source.location(of: offset)
    return LLVMDIBuilderCreateDebugLocation(context, UInt32(location.line), UInt32(location.column), scope, nil)
  }

  /// Describes a local's stack slot: a parameter (`argument` ≥ 1) or a variable.
  func declare(
    _ storage: LLVMValueRef, name: String, kind: NameKind, argument: Int?, at offset: Int, in scope: LLVMMetadataRef,
    block: LLVMBasicBlockRef
  ) {
    let variable: LLVMMetadataRef
    if let argument {
      variable = LLVMDIBuilderCreateParameterVariable(
        reference, scope, name, name.utf8.count, UInt32(argument), file, line(of: offset), type(of: kind), 1,
        LLVMDIFlagZero)
    } else {
      variable = LLVMDIBuilderCreateAutoVariable(
        reference, scope, name, name.utf8.count, file, line(of: offset), type(of: kind), 1, LLVMDIFlagZero, 0)
    }
    let expression = LLVMDIBuilderCreateExpression(reference, nil, 0)
    _ = LLVMDIBuilderInsertDeclareRecordAtEnd(reference, storage, variable, expression, location(at: offset, in: scope), block)
  }

  func finalize() {
    LLVMDIBuilderFinalize(reference)
  }
}
