import KaleidoscopeFrontend
import KaleidoscopeRuntime

/// Machine code the interpreter calls instead of interpreting: tiered execution (the back
/// end's `TieredExecution` provides it; the interpreter itself knows nothing of LLVM).
///
/// Each function has a slot in `entries`, empty until its code is ready; a compiler on another
/// thread may fill a slot at any time (`ks_tier_store_entry`), and the interpreter reads it at
/// every call of the function (`ks_tier_load_entry`), so calls switch to the compiled code at
/// function entry. Compiled code calls only compiled code: a function is compiled together
/// with every function it can call.
public protocol CompiledCode: AnyObject {
  /// One slot per function, by `FunctionID.index`: a `NativeEntry`, or nil.
  var entries: UnsafeMutablePointer<UnsafeMutableRawPointer?> { get }
  /// How many calls of a function without code make the interpreter report them again
  /// (`called`) after the first.
  var reportInterval: Int { get }
  /// How many iterations of a loop make the interpreter report it again (`loop`).
  var loopReportInterval: Int { get }
  /// Whether calls into machine code recover from its runtime errors and faults, which then
  /// end the interpreter's run with `InterpreterError.reported` (the REPL), rather than the
  /// process.
  var callsAreProtected: Bool { get }
  /// `function`, which has no code yet, has been called `times` times (1, then every
  /// `reportInterval`), the last time `at` a call site (nil if not known): the chance to
  /// compile it, now or in the background, or to stop the run (an interrupt).
  func called(_ function: FunctionID, times: Int, at site: CallSite?) throws(InterpreterError)
  /// The loop at `node`, in the body at `body` (an index in `program.bodies`), is at the top
  /// of an iteration, its `iterations`-th (0 when it starts, then every
  /// `loopReportInterval`, or every one while it `awaitsCode`): the chance to compile it,
  /// and its code if ready, to run the rest of the loop (on-stack replacement).
  func loop(_ node: ExprID, of body: Int, iterations: Int) -> LoopEntry?
  /// Whether the loop at `node` has been handed to the compiler and its code is not ready
  /// yet: the interpreter then asks `loop` at every iteration, so that it switches as soon
  /// as the code lands, not up to `loopReportInterval` long iterations later.
  func awaitsCode(forLoop node: ExprID) -> Bool
  /// A count bumped each time a loop is handed to the compiler. A running loop compares it
  /// at every iteration (a load) and, when it moved, asks `awaitsCode`: an inner loop's
  /// report may hand over the loop around it, in the middle of that loop's iteration.
  var loopsHandedOver: UnsafeMutablePointer<Int> { get }
  /// The code `loop` gave for the loop at `node` assumed what the frame does not hold, and
  /// did not run: the interpreter goes on, and the code may be replaced.
  func loopMissed(_ node: ExprID, of body: Int)
  /// The loop at `node` ended in the interpreter after `iterations` iterations of this run.
  /// `loop` saw only every `loopReportInterval`-th; the rest count toward making it hot too,
  /// so that a loop of short runs, nested in another, becomes hot as a long one does.
  func loopEnded(_ node: ExprID, iterations: Int)
  /// Whether the compiled code keeps the elements of the array global `global` as 64-bit
  /// integers (`ArrayStorage.holdsIntegers`), which the interpreter must then do too when
  /// it runs the global's declaration. Asked once per declaration of an array.
  func keepsIntegers(in global: GlobalID) -> Bool
  /// The top-level body at `body` (an index in `program.bodies`) starts: those before it
  /// have run, and their code will not run again.
  func starting(topLevel body: Int)
}

extension CompiledCode {
  /// `called(_:times:at:)` from no known call site.
  public func called(_ function: FunctionID, times: Int) throws(InterpreterError) {
    try called(function, times: times, at: nil)
  }
}

/// Where a call is: its node, in the body at `body` (an index in `program.bodies`).
public struct CallSite: Sendable, Equatable {
  public let node: ExprID
  public let body: Int

  public init(node: ExprID, body: Int) {
    self.node = node
    self.body = body
  }
}

/// The machine-code form of a function for the interpreter: it takes the arguments as
/// 8-byte cells (a number's value; an array's element address and count, two cells) and the
/// depth of the call (SPEC §3, checked by the caller), and returns the function's value.
public typealias NativeEntry = @convention(c) (UnsafeMutablePointer<Double>?, Int32) -> Double

/// The machine-code form of the rest of a running loop: it takes the body's locals as two
/// cells each (a number's value; an array's element address and count), as the interpreter
/// left them at the top of an iteration, and the frame's call depth, runs the remaining
/// iterations, leaves the numbers' new values in the cells and returns 1; or returns 0,
/// changing nothing, when it was made for a frame with other values.
public typealias LoopEntry = @convention(c) (UnsafeMutablePointer<Double>?, Int32) -> Int32

/// The program's globals in memory that compiled code reads and writes too: 16 bytes per
/// global, a number's value in the first 8, or an array's `{ elements, count }`.
///
/// `run` makes them here, one block for the program; the REPL lends the interpreter the
/// cells its JIT defined, wherever they are (`init(borrowing:)`).
public final class GlobalCells {
  /// Each global's cell, by `GlobalID.index`.
  let addresses: UnsafeMutablePointer<UnsafeMutablePointer<Double>>
  let count: Int
  /// The block holding the cells, when they are this object's own.
  private let block: UnsafeMutablePointer<Double>?
  /// Whether the cells already hold values (lent), rather than zeros to be set up.
  let isBorrowed: Bool

  init(count: Int) {
    self.count = count
    let block = UnsafeMutablePointer<Double>.allocate(capacity: max(1, 2 * count))
    block.initialize(repeating: 0, count: max(1, 2 * count))
    self.block = block
    addresses = .allocate(capacity: max(1, count))
    for index in 0..<count { (addresses + index).initialize(to: block + 2 * index) }
    isBorrowed = false
  }

  /// Cells that live elsewhere and outlive this object: `cells[i]` is global `i`'s.
  public init(borrowing cells: [UnsafeMutableRawPointer]) {
    count = cells.count
    block = nil
    addresses = .allocate(capacity: max(1, count))
    for (index, cell) in cells.enumerated() {
      (addresses + index).initialize(to: cell.assumingMemoryBound(to: Double.self))
    }
    isBorrowed = true
  }

  deinit {
    addresses.deallocate()
    block?.deallocate()
  }

  /// Where global `id` lives: a `double`, or a `{ ptr, i64 }`.
  public func address(of id: GlobalID) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(addresses[Int(id.index)])
  }

  subscript(number id: GlobalID) -> Double {
    get { addresses[Int(id.index)].pointee }
    set { addresses[Int(id.index)].pointee = newValue }
  }

  /// Every cell's 16 bytes as they are now, by `GlobalID.index`.
  public func snapshot() -> [(UInt64, UInt64)] {
    (0..<count).map { index in
      let cell = UnsafeRawPointer(addresses[index])
      return (cell.load(as: UInt64.self), cell.load(fromByteOffset: 8, as: UInt64.self))
    }
  }

  /// The array global `id` holds now; nil while it holds none (its declaration has not run).
  func array(_ id: GlobalID) -> ArrayStorage? {
    let cell = address(of: id)
    guard let elements = UnsafeMutablePointer<Double>(bitPattern: cell.load(as: UInt.self)) else { return nil }
    return ArrayStorage(elements: elements, count: Int(cell.load(fromByteOffset: 8, as: Int64.self)))
  }

  /// Points the array global `id` at `storage` (its declaration has run).
  func setArray(_ id: GlobalID, to storage: ArrayStorage) {
    let cell = address(of: id)
    cell.storeBytes(of: UInt(bitPattern: storage.elements), as: UInt.self)
    cell.storeBytes(of: Int64(storage.count), toByteOffset: 8, as: Int64.self)
  }
}
