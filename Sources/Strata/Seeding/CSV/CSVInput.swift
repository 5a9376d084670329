import Foundation

/// One stage between a seed file's bytes and the CSV reader's buffer: the file itself
/// (`RawInput`), gzip inflation (`GzipInput`) or an encoding's conversion to UTF-8
/// (`EncodingInput`). Each pulls from the one before it, a buffer at a time, so no stage ever
/// holds the whole file.
protocol CSVInput: AnyObject {
  /// Writes up to `room` bytes at `destination` and returns how many; 0 only at the end.
  ///
  /// - Throws: `CSVError` (`readFailed`) when the file cannot be read, or `CSVInputFailure`
  ///   when the bytes do not fit the stage (the reader locates it by line and column).
  func read(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws -> Int
}

/// Bytes a stage cannot turn into text: the reader adds the line and column of the text
/// delivered before them.
struct CSVInputFailure: Error {
  /// `invalidEncoding` or `corruptCompressedData`.
  let problem: CSVError.Problem
  /// What is wrong and at which byte of the file.
  let detail: String
}

/// The file or memory a reader reads, before any stage: it hashes every byte as read, so the
/// checksum is always of the file as stored (compressed bytes for a gzip file).
final class RawInput: CSVInput {
  enum Source {
    case file(Int32)
    case memory([UInt8], offset: Int)
  }

  private var source: Source
  let hasher: BackgroundHasher?
  /// Bytes read so far.
  private(set) var consumed: Int64 = 0
  /// Bytes looked at by `peek(_:)` and not yet read.
  private var peeked: [UInt8] = []
  /// Whether a read has returned 0.
  private(set) var isAtEnd = false

  init(source: Source, computeChecksum: Bool) {
    self.source = source
    self.hasher = computeChecksum ? BackgroundHasher() : nil
  }

  deinit {
    if case .file(let descriptor) = source { close(descriptor) }
  }

  /// The first `count` bytes (fewer when the input is shorter), read again by the next
  /// `read(into:room:)`.
  func peek(_ count: Int) throws -> [UInt8] {
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, count))
    defer { scratch.deallocate() }
    while peeked.count < count {
      let got = try readSource(into: scratch, room: count - peeked.count)
      if got == 0 { break }
      peeked += UnsafeBufferPointer(start: scratch, count: got)
    }
    return Array(peeked.prefix(count))
  }

  func read(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws -> Int {
    guard !peeked.isEmpty else { return try readSource(into: destination, room: room) }
    let count = min(room, peeked.count)
    for index in 0..<count { destination[index] = peeked[index] }
    peeked.removeFirst(count)
    return count
  }

  /// Reads (and hashes) the rest of the input without looking at it, for the checksum.
  func drain() throws {
    peeked.removeAll()
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
    defer { scratch.deallocate() }
    while try readSource(into: scratch, room: 1 << 20) > 0 {}
  }

  private func readSource(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws -> Int {
    let count: Int
    switch source {
    case .file(let descriptor):
      var result: Int
      repeat {
        result = Foundation.read(descriptor, destination, room)
      } while result < 0 && errno == EINTR
      guard result >= 0 else {
        throw CSVError(.readFailed, line: 1, column: 1, detail: String(cString: strerror(errno)))
      }
      count = result
    case .memory(let bytes, let offset):
      count = min(room, bytes.count - offset)
      if count > 0 {
        bytes.withUnsafeBufferPointer { source in
          guard let base = source.baseAddress else { return }
          destination.update(from: base + offset, count: count)
        }
      }
      source = .memory(bytes, offset: offset + count)
    }
    if count == 0 {
      isAtEnd = true
      return 0
    }
    hasher?.update(UnsafeBufferPointer(start: destination, count: count))
    consumed += Int64(count)
    return count
  }
}
