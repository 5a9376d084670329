/// The byte-level rules of CSV text, on raw buffer memory: UTF-8 validation and quote
/// undoubling.
enum CSVBytes {
  static let comma: UInt8 = 0x2C
  static let quote: UInt8 = 0x22
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D

  /// Rewrites `""` as `"` in place; returns the new length.
  static func undoubleQuotes(_ start: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    var read = 0
    var write = 0
    while read < count {
      let byte = start[read]
      start[write] = byte
      write += 1
      read += byte == quote ? 2 : 1
    }
    return write
  }

  /// The length of the valid UTF-8 sequence at `i` (2…4), or 0 when it is invalid or cut
  /// short by `end`. Rejects overlong forms, surrogates and code points above U+10FFFF.
  @inline(__always)
  static func utf8SequenceLength(
    _ p: UnsafeMutablePointer<UInt8>,
    at i: Int,
    end: Int
  ) -> Int {
    let lead = p[i]
    func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      i + offset < end && p[i + offset] >= low && p[i + offset] <= high
    }
    switch lead {
    case 0xC2...0xDF:
      return continuation(1) ? 2 : 0
    case 0xE0:
      return continuation(1, 0xA0) && continuation(2) ? 3 : 0
    case 0xED:
      return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
    case 0xE1...0xEF:
      return continuation(1) && continuation(2) ? 3 : 0
    case 0xF0:
      return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3:
      return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4:
      return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
    default:
      return 0
    }
  }
}
