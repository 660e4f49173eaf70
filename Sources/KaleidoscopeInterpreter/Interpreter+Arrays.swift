import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// Arrays in the interpreter (SPEC §5): their storage, their creation from a `var` binding
/// or a literal, and the checked element access every engine performs alike.
extension Interpreter {
  /// The value a `var` binding gives its variable: a number, or the handle of a new array,
  /// which keeps integers if `holdsIntegers` (a global's, `CompiledCode.keepsIntegers`) and
  /// lies `apart` from other arrays if asked (a global's, `ks_array_new_apart`).
  func value(of binding: VarBinding, holdsIntegers: Bool = false, apart: Bool = false) throws(InterpreterError)
    -> Double
  {
    switch binding.value {
    case .number(let initializer):
      return try evaluate(initializer, or: 0)
    case .zeros(let countExpr):
      let count = try evaluate(countExpr)
      let site = (tree.text(binding.name), binding.nameRange.start)
      guard count >= 0, count <= Double(UInt32.max), count.rounded(.towardZero) == count else {
        throw located(KS_BAD_SIZE, value: count, length: 0, name: site.0, at: site.1)
      }
      var storage = try allocate(Int(count), name: site.0, at: site.1, apart: apart)
      storage.holdsIntegers = holdsIntegers  // Zeros are the same bits either way.
      return try push(storage).slotValue
    case .elements(let literal):
      return try makeArray(
        from: literal, name: tree.text(binding.name), at: binding.nameRange.start, holdsIntegers: holdsIntegers,
        apart: apart
      ).slotValue
    }
  }

  /// A fresh array holding an array literal's values or a string's bytes.
  func makeArray(
    from literal: ExprID, name: String = "literal", at start: Int? = nil, holdsIntegers: Bool = false,
    apart: Bool = false
  ) throws(InterpreterError) -> ArrayHandle {
    switch tree[literal] {
    case .arrayLiteral(let list):
      let elements = tree.arguments(list)
      // The elements are evaluated before the array is made, so that their own arrays (of
      // calls with literal arguments) come and go first.
      var values: [Double] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try evaluate(element)) }
      var storage = try allocate(values.count, name: name, at: start ?? tree.start(of: literal), apart: apart)
      storage.holdsIntegers = holdsIntegers
      for (index, value) in values.enumerated() { storage[index] = value }
      return try push(storage)
    case .string(let index):
      let bytes = tree.string(index)
      var storage = try allocate(bytes.count, name: name, at: start ?? tree.start(of: literal), apart: apart)
      storage.holdsIntegers = holdsIntegers
      for (index, byte) in bytes.enumerated() { storage[index] = Double(byte) }
      return try push(storage)
    default:
      preconditionFailure("sema makes arrays only from literals and strings")
    }
  }

  /// `count` zeros from the runtime's allocator (`apart` from other arrays if asked), or the
  /// located out-of-memory error.
  private func allocate(_ count: Int, name: String, at start: Int, apart: Bool) throws(InterpreterError) -> ArrayStorage {
    guard let elements = apart ? ks_array_new_apart(UInt64(count)) : ks_array_new(UInt64(count)) else {
      throw located(KS_OUT_OF_MEMORY, value: Double(count), length: 0, name: name, at: start)
    }
    return ArrayStorage(elements: elements, count: count)
  }

  private func push(_ storage: ArrayStorage) throws(InterpreterError) -> ArrayHandle {
    arrays.append(storage)
    return ArrayHandle(index: arrays.count - 1)
  }

  /// Frees the arrays made since `mark` (a `var` body or a call has ended).
  func popArrays(to mark: Int) {
    while arrays.count > mark { arrays.removeLast().free() }
  }

  /// The position `value` names in `storage`, or the located error: not a whole number
  /// first (NaN included), then out of bounds.
  func checkedIndex(_ value: Double, in storage: ArrayStorage, of array: Name, at id: ExprID) throws(InterpreterError) -> Int {
    guard value >= 0, value < Double(storage.count), value.rounded(.towardZero) == value else {
      let kind = value.rounded(.towardZero) == value ? KS_INDEX_OUT_OF_BOUNDS : KS_INDEX_NOT_WHOLE
      throw located(kind, value: value, length: storage.count, name: tree.text(array), at: tree.start(of: id))
    }
    return Int(value)
  }

  /// A runtime error at `start`, worded by the runtime (`ks_describe_array_error`), as
  /// compiled code words it.
  @inline(never)
  private func located(_ kind: Int, value: Double, length: Int, name: String, at start: Int) -> InterpreterError {
    let site = "\(tree.file.name):\(tree.file.location(of: start))"
    var buffer = [CChar](repeating: 0, count: site.utf8.count + name.utf8.count + 200)
    let length = ks_describe_array_error(&buffer, buffer.count, Int32(kind), site, name, value, UInt64(length))
    let message = String(decoding: buffer[..<min(Int(length), buffer.count - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return fault(.located(message.hasSuffix("\n") ? String(message.dropLast()) : message))
  }
}

/// An array's elements, from the runtime's allocator (so that running out of memory is an
/// error, not a trap), and their number. The 8-byte elements hold doubles, or, for an array
/// proved to hold only whole numbers that convert exactly (`holdsIntegers`, decided for a
/// whole program before it runs), 64-bit integers, as compiled code keeps them.
struct ArrayStorage {
  let elements: UnsafeMutablePointer<Double>
  let count: Int
  var holdsIntegers = false

  /// The array a global array holds before its declaration runs.
  static func makeEmpty() -> ArrayStorage {
    ArrayStorage(elements: ks_array_new(0)!, count: 0)
  }

  /// Element `position`, which the caller has checked, as the language's number.
  subscript(position: Int) -> Double {
    get {
      let stored = elements[position]
      return holdsIntegers ? Double(Int64(bitPattern: stored.bitPattern)) : stored
    }
    nonmutating set {
      elements[position] = holdsIntegers ? Double(bitPattern: UInt64(bitPattern: Int64(newValue))) : newValue
    }
  }

  func free() { ks_array_free(elements) }
}

/// An array as a value in a frame's slot: its index in `Interpreter.arrays`, carried in the
/// slot's 64 bits. The checker guarantees that a slot holding a handle is only ever read as
/// one, so no slot needs a tag.
struct ArrayHandle {
  let index: Int

  init(index: Int) { self.index = index }
  init(_ slotValue: Double) { index = Int(truncatingIfNeeded: slotValue.bitPattern) }

  var slotValue: Double { Double(bitPattern: UInt64(index)) }

  /// The empty array, always at index 0.
  static let empty = ArrayHandle(index: 0)
}
