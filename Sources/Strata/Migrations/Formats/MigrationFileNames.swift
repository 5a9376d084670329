/// A folder's file names read from their bytes when they are ASCII, as nearly every migration
/// file's name is: `strata status` reads a thousand names, and the character-by-character
/// reading (lower-casing copies, grapheme breaks, Unicode numeric properties) was a tenth of
/// its work. In ASCII a character is a byte (the one pair of ASCII bytes that makes a single
/// character, CR LF, never decides anything here), so the byte reading and the character
/// reading agree; any other name keeps the character reading.
extension MigrationParser {
  /// True when `name` ends in `.sql`, in any case (what makes a file a migration's).
  package static func isSQLName(_ name: String) -> Bool {
    withASCII(name) { hasSuffix($0, sqlSuffix) } ?? name.lowercased().hasSuffix(".sql")
  }

  /// The names in the order `sorted()` gives: by their bytes when every name is ASCII (where
  /// the two orders are one, `String` comparing Unicode scalars), by `String`'s comparison
  /// otherwise. Each ASCII name's first 16 bytes, as two big-endian numbers, decide nearly every
  /// comparison; names alike that far are compared as bytes.
  package static func sortedNames(_ names: [String]) -> [String] {
    var keys: [(high: UInt64, low: UInt64)] = []
    keys.reserveCapacity(names.count)
    for name in names {
      let key = withASCII(name) { bytes -> (high: UInt64, low: UInt64) in
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<16 {
          let byte = index < bytes.count ? UInt64(bytes[index]) : 0
          if index < 8 { high = high << 8 | byte } else { low = low << 8 | byte }
        }
        return (high, low)
      }
      guard let key else { return names.sorted() }
      keys.append(key)
    }
    let order = keys.indices.sorted { a, b in
      if keys[a] != keys[b] { return keys[a] < keys[b] }
      return names[a].utf8.lexicographicallyPrecedes(names[b].utf8)
    }
    return order.map { names[$0] }
  }

  /// What ``parseFileName(_:)`` reads in an ASCII name; `.some(nil)` when the name is not a
  /// migration's, nil when the name is not ASCII.
  static func asciiFileName(_ fileName: String) -> FileName?? {
    withASCII(fileName) { bytes -> FileName? in
      guard hasSuffix(bytes, sqlSuffix) else { return nil }
      var end = bytes.count - 4
      var part = FileName.Part.whole
      if hasSuffix(bytes[..<end], upSuffix) {
        part = .up
        end -= 3
      } else if hasSuffix(bytes[..<end], downSuffix) {
        part = .down
        end -= 5
      }
      let digits = bytes[..<end].prefix { $0 >= 0x30 && $0 <= 0x39 }
      guard let version = number(digits), digits.endIndex < end,
        bytes[digits.endIndex] == UInt8(ascii: "_"), end - digits.endIndex > 1
      else { return nil }
      let name = String(decoding: bytes[(digits.endIndex + 1)..<end], as: UTF8.self)
      return FileName(version: version, name: name, part: part)
    }
  }

  /// `1.sql` as an iOS bundle names it (SQLiteMigrationManager): the version, no name.
  static func bareVersion(_ name: String) -> FileName? {
    if let ascii = asciiBareVersion(name) { return ascii }
    let stem = name.dropLast(4)
    guard !stem.isEmpty, stem.allSatisfy({ $0.isASCII && $0.isNumber }),
      let version = Int64(stem)
    else { return nil }
    return FileName(version: version, name: "", part: .whole)
  }

  /// What `bareVersion(_:)` reads in an ASCII name (`1.sql`); `.some(nil)` when it
  /// is not one, nil when the name is not ASCII.
  static func asciiBareVersion(_ name: String) -> FileName?? {
    withASCII(name) { bytes -> FileName? in
      guard bytes.count > 4 else { return nil }
      let stem = bytes[..<(bytes.count - 4)]
      guard stem.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let version = number(stem) else {
        return nil
      }
      return FileName(version: version, name: "", part: .whole)
    }
  }

  private static let sqlSuffix = Array(".sql".utf8)
  private static let upSuffix = Array(".up".utf8)
  private static let downSuffix = Array(".down".utf8)

  /// `body` of the UTF-8 bytes of `name` when they are all ASCII; nil otherwise.
  private static func withASCII<Result>(
    _ name: String,
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    let result = name.utf8.withContiguousStorageIfAvailable { bytes -> Result? in
      bytes.allSatisfy { $0 < 0x80 } ? body(bytes) : nil
    }
    return result ?? nil
  }

  /// Whether `bytes` end with `suffix`, ASCII letters in any case (`suffix` is lower case).
  private static func hasSuffix(_ bytes: some Collection<UInt8>, _ suffix: [UInt8]) -> Bool {
    guard bytes.count >= suffix.count else { return false }
    return zip(bytes.suffix(suffix.count), suffix).allSatisfy { byte, want in
      (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == want
    }
  }

  /// The number that ASCII digits spell, as `Int64(_:)` reads it: nil when there are none or
  /// it does not fit in 64 bits.
  private static func number(_ digits: some Collection<UInt8>) -> Int64? {
    guard !digits.isEmpty else { return nil }
    var value: Int64 = 0
    for digit in digits {
      let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times.addingReportingOverflow(Int64(digit - 0x30))
      guard !overflowA, !overflowB else { return nil }
      value = sum
    }
    return value
  }
}
