/// Converts a file's text from Windows-1252, Latin-1 or UTF-16 to UTF-8 as it is read, a
/// buffer at a time. Bytes the encoding does not define (0x81 in Windows-1252, an odd UTF-16
/// length, an unpaired surrogate) stop it: the text before them is delivered, then the next
/// read throws, so the reader can say on which line they are.
final class EncodingInput: CSVInput {
  private let upstream: any CSVInput
  private let encoding: SeedEncoding
  private var bigEndian: Bool
  /// Whether a `utf-16` file's byte order mark has been read.
  private var orderKnown: Bool
  private let input: UnsafeMutablePointer<UInt8>
  private let inputCapacity = 1 << 16
  private var start = 0
  private var end = 0
  private var upstreamAtEnd = false
  /// Bytes of the (decompressed) file before `input[0]`, for the failure's offset.
  private var offset: Int64 = 0
  private var failure: CSVInputFailure?
  /// Converted bytes a small read had no room for.
  private var carried: [UInt8] = []

  init(upstream: any CSVInput, encoding: SeedEncoding) {
    self.upstream = upstream
    self.encoding = encoding
    self.bigEndian = encoding == .utf16BE
    self.orderKnown = encoding != .utf16
    input = .allocate(capacity: inputCapacity)
  }

  deinit { input.deallocate() }

  func read(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws -> Int {
    if !carried.isEmpty {
      let count = min(room, carried.count)
      for index in 0..<count { destination[index] = carried[index] }
      carried.removeFirst(count)
      return count
    }
    if room < 4 {
      // A character may need four bytes: convert one into a scratch and carry the rest.
      let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
      defer { scratch.deallocate() }
      let count = try read(into: scratch, room: 4)
      carried = Array(UnsafeBufferPointer(start: scratch, count: count))
      return count == 0 ? 0 : try read(into: destination, room: room)
    }
    if let failure { throw failure }
    while true {
      while end - start < 4 && !upstreamAtEnd { try refill() }
      if !orderKnown { try readByteOrderMark() }
      let written = convert(into: destination, room: room)
      if written > 0 { return written }
      if let failure { throw failure }
      if upstreamAtEnd { return 0 }
    }
  }

  private func refill() throws {
    if start > 0 {
      input.update(from: input + start, count: end - start)
      offset += Int64(start)
      end -= start
      start = 0
    }
    let count = try upstream.read(into: input + end, room: inputCapacity - end)
    if count == 0 { upstreamAtEnd = true }
    end += count
  }

  private func readByteOrderMark() throws {
    orderKnown = true
    if end - start >= 2, input[start] == 0xFF, input[start + 1] == 0xFE {
      bigEndian = false
    } else if end - start >= 2, input[start] == 0xFE, input[start + 1] == 0xFF {
      bigEndian = true
    } else {
      throw CSVInputFailure(
        problem: .invalidEncoding,
        detail: "the file does not start with a UTF-16 byte order mark (FF FE or FE FF), "
          + "which says its byte order"
      )
    }
    start += 2
  }

  /// Converts what is buffered into at most `room` bytes; sets `failure` at a bad byte.
  private func convert(into destination: UnsafeMutablePointer<UInt8>, room: Int) -> Int {
    var written = 0
    switch encoding {
    case .utf8:
      let count = min(room, end - start)
      destination.update(from: input + start, count: count)
      start += count
      return count
    case .latin1, .windows1252:
      let table = encoding == .windows1252
      while start < end && written + 3 <= room {
        let byte = input[start]
        var scalar = UInt32(byte)
        if table, byte >= 0x80, byte <= 0x9F {
          scalar = UInt32(Self.windows1252[Int(byte - 0x80)])
          if scalar == 0 {
            fail("byte 0x\(hex(byte)) is not a Windows-1252 character", at: start)
            break
          }
        }
        written += encodeUTF8(scalar, at: destination + written)
        start += 1
      }
    case .utf16, .utf16LE, .utf16BE:
      while written + 4 <= room {
        guard end - start >= 2 else {
          if upstreamAtEnd && end - start == 1 {
            fail(
              "the file ends in the middle of a UTF-16 character (an odd number of bytes)",
              at: start
            )
          }
          break
        }
        let unit = unitAt(start)
        if unit & 0xFC00 == 0xD800 {
          guard end - start >= 4 else {
            if upstreamAtEnd { fail("an unpaired UTF-16 surrogate", at: start) }
            break
          }
          let low = unitAt(start + 2)
          guard low & 0xFC00 == 0xDC00 else {
            fail("an unpaired UTF-16 surrogate", at: start)
            break
          }
          let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          written += encodeUTF8(scalar, at: destination + written)
          start += 4
        } else if unit & 0xFC00 == 0xDC00 {
          fail("an unpaired UTF-16 surrogate", at: start)
          break
        } else {
          written += encodeUTF8(UInt32(unit), at: destination + written)
          start += 2
        }
      }
    }
    return written
  }

  private func unitAt(_ index: Int) -> UInt16 {
    let first = UInt16(input[index])
    let second = UInt16(input[index + 1])
    return bigEndian ? first << 8 | second : second << 8 | first
  }

  private func fail(_ what: String, at index: Int) {
    failure = CSVInputFailure(
      problem: .invalidEncoding,
      detail: "\(what), at byte offset \(offset + Int64(index)) of the \(encoding.rawValue) text"
    )
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + digits : digits
  }

  /// Writes `scalar` (not a surrogate) as UTF-8; returns its length.
  @inline(__always)
  private func encodeUTF8(_ scalar: UInt32, at p: UnsafeMutablePointer<UInt8>) -> Int {
    switch scalar {
    case 0..<0x80:
      p[0] = UInt8(scalar)
      return 1
    case 0x80..<0x800:
      p[0] = UInt8(0xC0 | scalar >> 6)
      p[1] = UInt8(0x80 | scalar & 0x3F)
      return 2
    case 0x800..<0x10000:
      p[0] = UInt8(0xE0 | scalar >> 12)
      p[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
      p[2] = UInt8(0x80 | scalar & 0x3F)
      return 3
    default:
      p[0] = UInt8(0xF0 | scalar >> 18)
      p[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
      p[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
      p[3] = UInt8(0x80 | scalar & 0x3F)
      return 4
    }
  }

  /// Windows-1252's characters for bytes 0x80…0x9F (0: undefined); the other bytes are
  /// Latin-1's, the same code point as the byte.
  private static let windows1252: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]
}
