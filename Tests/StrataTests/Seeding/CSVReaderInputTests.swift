import Foundation
import Strata
import Testing

/// The reader's input stages (issue 16): a delimiter byte, encodings converted to UTF-8 and
/// gzip inflated while streaming, at every chunk size (a chunk of 1 puts a refill between any
/// two bytes, and a UTF-16 pair or a converted character across it), with each failure at
/// the same line and column whatever the chunk size.
@Suite struct CSVReaderInputTests {
  static let chunkSizes = [1, 2, 3, 5, 7, 64, 1 << 20]

  /// The fields of every record, as text.
  static func fields(
    _ bytes: [UInt8],
    chunkSize: Int,
    delimiter: UInt8 = 0x2C,
    encoding: SeedEncoding = .utf8
  ) throws -> [[String]] {
    let reader = CSVReader(
      bytes: bytes,
      chunkSize: chunkSize,
      delimiter: delimiter,
      encoding: encoding
    )
    return try reader.readAll().map { $0.fields.map(\.text) }
  }

  static func failure(
    _ bytes: [UInt8],
    chunkSize: Int,
    delimiter: UInt8 = 0x2C,
    encoding: SeedEncoding
  ) -> CSVError? {
    do {
      _ = try fields(bytes, chunkSize: chunkSize, delimiter: delimiter, encoding: encoding)
      return nil
    } catch {
      return error as? CSVError
    }
  }

  /// `text` in UTF-16 of either byte order, with a byte order mark when `mark` is set.
  static func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
    let units: [UInt16] = (mark ? [0xFEFF] : []) + Array(text.utf16)
    return units.flatMap { unit in
      bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
  }

  @Test(arguments: chunkSizes)
  func aDelimiterSplitsFieldsAndQuotesKeepIt(chunkSize: Int) throws {
    let text = "a;b\n1;\"x;y\"\n\"q\"\"\";\n"
    #expect(
      try Self.fields(Array(text.utf8), chunkSize: chunkSize, delimiter: 0x3B)
        == [["a", "b"], ["1", "x;y"], ["q\"", ""]]
    )
    // With a tab, commas are plain text.
    #expect(
      try Self.fields(Array("a\tb,c\n".utf8), chunkSize: chunkSize, delimiter: 0x09)
        == [["a", "b,c"]]
    )
  }

  @Test(arguments: chunkSizes)
  func windows1252ConvertsEveryDefinedByte(chunkSize: Int) throws {
    let bytes = Array("n\n".utf8) + [0x80, 0x8A, 0x9F, 0xA0, 0xE9, 0xFF, 0x0A]
    #expect(
      try Self.fields(bytes, chunkSize: chunkSize, encoding: .windows1252)
        == [["n"], ["€ŠŸ\u{A0}éÿ"]]
    )
    // Latin-1 maps every byte to the code point of the same number.
    #expect(
      try Self.fields(Array("n\n".utf8) + [0xE9, 0xFF], chunkSize: chunkSize, encoding: .latin1)
        == [["n"], ["éÿ"]]
    )
  }

  @Test(arguments: chunkSizes)
  func utf16ConvertsPairsAndSkipsTheByteOrderMark(chunkSize: Int) throws {
    let text = "name,note\nZoë,\"𝄞\nx\"\n"
    let expected = [["name", "note"], ["Zoë", "𝄞\nx"]]
    for (encoding, bigEndian, mark) in [
      (SeedEncoding.utf16, false, true), (.utf16, true, true), (.utf16LE, false, false),
      (.utf16BE, true, false), (.utf16BE, true, true),
    ] {
      let bytes = Self.utf16(text, bigEndian: bigEndian, mark: mark)
      #expect(try Self.fields(bytes, chunkSize: chunkSize, encoding: encoding) == expected)
    }
  }

  @Test(arguments: chunkSizes)
  func bytesThatDoNotFitFailAtTheirLineAndColumn(chunkSize: Int) throws {
    let undefined = Array("a\nbc,\"d\ne".utf8) + [0x8D] + Array("f\n".utf8)
    let windows = try #require(
      Self.failure(undefined, chunkSize: chunkSize, encoding: .windows1252)
    )
    #expect(windows.problem == .invalidEncoding)
    #expect(windows.line == 3 && windows.column == 2, "\(windows)")
    #expect(
      windows.detail
        == "byte 0x8D is not a Windows-1252 character, at byte offset 9 of the windows-1252 text"
    )

    let odd = Self.utf16("a\nb", bigEndian: false, mark: false) + [0x41]
    let cut = try #require(Self.failure(odd, chunkSize: chunkSize, encoding: .utf16LE))
    #expect(cut.problem == .invalidEncoding && cut.line == 2 && cut.column == 2, "\(cut)")

    let lone = Self.utf16("a\nbc", bigEndian: true, mark: false) + [0xDC, 0x00, 0x00, 0x41]
    let surrogate = try #require(Self.failure(lone, chunkSize: chunkSize, encoding: .utf16BE))
    #expect(surrogate.line == 2 && surrogate.column == 3, "\(surrogate)")
    #expect(surrogate.detail?.hasPrefix("an unpaired UTF-16 surrogate") == true)

    let unmarked = Self.utf16("a\n", bigEndian: false, mark: false)
    let order = try #require(Self.failure(unmarked, chunkSize: chunkSize, encoding: .utf16))
    #expect(order.line == 1 && order.column == 1 && order.problem == .invalidEncoding)
  }

  /// `a;b\n1;"x;y"\n`, gzipped (by Python's gzip module, mtime 0).
  static let gzipped: [UInt8] = [
    0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4B, 0xB4, 0x4E, 0xE2, 0x32,
    0xB4, 0x56, 0xAA, 0xB0, 0xAE, 0x54, 0xE2, 0x02, 0x00, 0xBA, 0x5A, 0xFD, 0xD8, 0x0C, 0x00,
    0x00, 0x00,
  ]

  @Test(arguments: chunkSizes)
  func gzipBytesAreInflatedAndTheChecksumIsOfTheCompressedBytes(chunkSize: Int) throws {
    #expect(
      try Self.fields(Self.gzipped, chunkSize: chunkSize, delimiter: 0x3B)
        == [["a", "b"], ["1", "x;y"]]
    )
    let reader = CSVReader(
      bytes: Self.gzipped,
      chunkSize: chunkSize,
      computeChecksum: true,
      delimiter: 0x3B
    )
    _ = try reader.nextRecord()
    var hasher = SHA256ForTests()
    #expect(try reader.checksum() == hasher.hex(Self.gzipped))
  }

  @Test(arguments: chunkSizes)
  func truncatedGzipFailsAfterTheTextBeforeTheCut(chunkSize: Int) throws {
    for length in [3, 12, 20, Self.gzipped.count - 4] {
      let cut = Array(Self.gzipped.prefix(length))
      let error = try #require(
        Self.failure(cut, chunkSize: chunkSize, delimiter: 0x3B, encoding: .utf8)
      )
      #expect(error.problem == .corruptCompressedData, "\(length): \(error)")
    }
  }
}

/// SHA-256 through the library's ledger checksum of a file, for the tests above.
struct SHA256ForTests {
  mutating func hex(_ bytes: [UInt8]) throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-sha-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    // A file that starts with gzip's magic bytes is still hashed as stored.
    return try Seeder.checksum(of: url)
  }
}
