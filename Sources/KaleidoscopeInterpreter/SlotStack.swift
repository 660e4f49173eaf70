import KaleidoscopeFrontend

/// The interpreter's stack of frames: a growable buffer of doubles that it owns alone, so
/// pushing and popping a call's frame is an index move, without the uniqueness checks and
/// copies a Swift array pays for each change.
struct SlotStack: ~Copyable {
  private var base: UnsafeMutablePointer<Double>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 1024
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  subscript(index: Int) -> Double {
    get {
      precondition(index >= 0 && index < count, "slot out of the stack")
      return base[index]
    }
    set {
      precondition(index >= 0 && index < count, "slot out of the stack")
      base[index] = newValue
    }
  }

  mutating func append(_ value: Double) {
    if count == capacity { grow(to: count + 1) }
    base[count] = value
    count += 1
  }

  /// Pushes `count` zeros (a frame's locals beyond its arguments).
  mutating func appendZeros(_ zeros: Int) {
    guard zeros > 0 else { return }
    if count + zeros > capacity { grow(to: count + zeros) }
    (base + count).initialize(repeating: 0, count: zeros)
    count += zeros
  }

  mutating func removeLast(_ values: Int) {
    precondition(values >= 0 && values <= count, "popping more than the stack holds")
    count -= values
  }

  /// Pops the values from `start` to the top and passes them, in place, to `body`, which
  /// must not push (an extern's call).
  mutating func popValues(
    from start: Int, into body: ExternalFunction
  ) throws(InterpreterError) -> Double {
    let values = UnsafeBufferPointer(start: base + start, count: count - start)
    count = start
    return try body(values)
  }

  private mutating func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let new = UnsafeMutablePointer<Double>.allocate(capacity: newCapacity)
    new.moveInitialize(from: base, count: count)
    base.deallocate()
    base = new
    capacity = newCapacity
  }
}
