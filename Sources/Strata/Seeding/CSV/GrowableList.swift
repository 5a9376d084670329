/// A list of plain values in memory it owns, for the reader's hot path (a class's array
/// property costs an exclusivity check on every access; this list is reached through one
/// `inout` access per record).
///
/// Non-copyable: one value owns the allocation and frees it when it goes, so no copy can
/// outlive a reallocation or free it twice. Others read it through a `ListView`.
struct GrowableList<Element: BitwiseCopyable>: ~Copyable {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = max(1, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  @inline(__always)
  subscript(index: Int) -> Element { base[index] }

  mutating func removeLast(_ n: Int) { count -= n }

  mutating func removeAll() { count = 0 }

  /// A read-only look at the elements, valid until the list next changes.
  var view: ListView<Element> { ListView(base: UnsafePointer(base), count: count) }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }
}

/// The elements of a `GrowableList` as they were when the view was taken: it owns nothing, and
/// is valid only until the list next changes (for the reader: the next `readRecord()` or
/// `releaseRecords()`), the same lifetime as the reader's field pointers.
struct ListView<Element: BitwiseCopyable> {
  let base: UnsafePointer<Element>
  let count: Int

  @inline(__always)
  subscript(index: Int) -> Element { base[index] }
}
