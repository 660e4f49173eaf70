import CLLVM

/// Type-based alias information for the memory the generated code touches, so that LLVM
/// knows what the language guarantees: an array's elements are only ever reached through
/// element accesses, its pointer and count only through its header, and number variables
/// only by name. A store to an element then cannot change a header or a number, and the
/// header's loads and the index checks that follow a store need not be repeated.
///
/// Memory the generated code does not tag (the runtime's calloc and memcpy, the REPL's
/// slots) may alias anything, as untagged memory does.
struct AliasInfo {
  /// What an access reaches.
  enum Access {
    case element, number, arrayElements, arrayCount
  }

  private let kind: UInt32
  private let tags: [LLVMValueRef]
  private let invariantKind: UInt32
  private let rangeKind: UInt32
  private let emptyNode: LLVMValueRef

  init(context: LLVMContextRef) {
    kind = LLVMGetMDKindIDInContext(context, "tbaa", 4)
    invariantKind = LLVMGetMDKindIDInContext(context, "invariant.load", 14)
    rangeKind = LLVMGetMDKindIDInContext(context, "range", 5)
    let int64 = LLVMInt64TypeInContext(context)!
    func string(_ text: String) -> LLVMMetadataRef { LLVMMDStringInContext2(context, text, text.utf8.count) }
    func node(_ operands: [LLVMMetadataRef]) -> LLVMMetadataRef {
      var operands = operands.map { Optional($0) }
      return LLVMMDNodeInContext2(context, &operands, operands.count)
    }
    let zero = LLVMValueAsMetadata(LLVMConstInt(int64, 0, 0))!
    let root = node([string("Kaleidoscope alias types")])
    emptyNode = LLVMMetadataAsValue(context, node([]))
    // One scalar type per kind of memory, each tagged at offset 0 of itself.
    tags = ["array element", "number variable", "array elements pointer", "array count"].map { name in
      let type = node([string(name), root, zero])
      return LLVMMetadataAsValue(context, node([type, type, zero]))
    }
  }

  /// Tags a load or store with what it reaches.
  func tag(_ instruction: LLVMValueRef, _ access: Access) {
    let index =
      switch access {
      case .element: 0
      case .number: 1
      case .arrayElements: 2
      case .arrayCount: 3
      }
    LLVMSetMetadata(instruction, kind, tags[index])
  }

  /// Marks a load of an integer known to lie in `lower..<upper` (constants of its type).
  func markRange(_ load: LLVMValueRef, lower: LLVMValueRef, upper: LLVMValueRef) {
    let context = LLVMGetTypeContext(LLVMTypeOf(load))
    var bounds = [LLVMValueAsMetadata(lower), LLVMValueAsMetadata(upper)]
    LLVMSetMetadata(load, rangeKind, LLVMMetadataAsValue(context, LLVMMDNodeInContext2(context, &bounds, 2)))
  }

  /// Marks a load of memory that holds the same value wherever the code reads it.
  func markInvariant(_ load: LLVMValueRef) {
    LLVMSetMetadata(load, invariantKind, emptyNode)
  }
}
