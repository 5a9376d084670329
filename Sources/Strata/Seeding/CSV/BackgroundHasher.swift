import Foundation

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
