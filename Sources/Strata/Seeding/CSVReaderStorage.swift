import Foundation

/// A list in manually managed memory, for plain values (no deinitialisation needed). Copies
/// share the memory: the owner deallocates it once.
struct GrowableList<Element> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

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

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  func deallocate() { base.deallocate() }
}

/// Hashes the file's chunks on a background queue while the load goes on (SHA-256 would
/// otherwise cost the load about a tenth of its time). At most four chunks wait at once.
final class BackgroundHasher: @unchecked Sendable {
  // @unchecked: `hasher` is only touched on `queue`, a serial queue.
  private let queue = DispatchQueue(label: "strata.seed.checksum")
  private var hasher = SHA256()
  private let slots = DispatchSemaphore(value: 4)

  /// Queues a copy of `bytes`, in pieces of at most 1 MiB, so the queue holds at most 4 MiB
  /// however large a read is.
  func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < bytes.count {
      let count = min(bytes.count - offset, 1 << 20)
      let copy = Array(UnsafeBufferPointer(rebasing: bytes[offset..<offset + count]))
      offset += count
      slots.wait()
      queue.async {
        self.hasher.update(copy)
        self.slots.signal()
      }
    }
  }

  /// Waits for the queued chunks, then returns the digest as hex.
  func finalizeHex() -> String {
    queue.sync { hasher.finalizeHex() }
  }
}
