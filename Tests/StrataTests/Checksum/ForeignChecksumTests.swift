import Testing

@testable import Strata

/// CRC-32 and the checksums Flyway and sqlx store for a migration file, each against a value
/// derived without strata's code.
@Suite struct ForeignChecksumTests {
  /// The CRC-32 "check" value of the catalogue of CRC parameters (zlib's and Java's CRC32).
  @Test func crc32CheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
  }

  /// What Flyway stores in `flyway_schema_history.checksum`. The expected numbers are python3's
  /// emulation of flyway-core's ChecksumCalculator, written from its source and not from
  /// strata's: split the text at `\r\n`, `\r` or `\n` as Java's `BufferedReader.readLine` does
  /// (no empty line after a final ending), drop a U+FEFF from the first line (`BomFilter`),
  /// `zlib.crc32` of the lines' UTF-8 bytes joined with nothing, as a signed 32-bit int:
  ///
  ///     lines = re.split(r'\r\n|\r|\n', text)  # then the two steps above
  ///     c = zlib.crc32(b''.join(l.encode('utf-8') for l in lines))
  ///     c - (1 << 32) if c >= 1 << 31 else c
  @Test(arguments: [
    ("CREATE TABLE b (x);\n", -1_802_148_518),
    // The same SQL with another line ending, or none at the end: the same checksum.
    ("CREATE TABLE b (x);\r\n", -1_802_148_518),
    ("CREATE TABLE b (x);", -1_802_148_518),
    ("\u{FEFF}CREATE TABLE a (x);\r\nCREATE TABLE log (what TEXT);\r\n", 832_100_385),
    ("CREATE TABLE a (x);\rCREATE TABLE log (what TEXT);\n", 832_100_385),
    ("123456789", -873_187_034),
  ])
  func flywayChecksum(text: String, expected: Int32) {
    #expect(ForeignChecksum(.flyway, bytes: Array(text.utf8)) == .flyway(expected))
  }

  /// A byte order mark counts only at the very start (Flyway strips it from the first line).
  @Test func flywayKeepsALaterByteOrderMark() {
    let later = ForeignChecksum(.flyway, bytes: Array("\nx\u{FEFF}".utf8))
    #expect(later != ForeignChecksum(.flyway, bytes: Array("x".utf8)))
  }

  /// What sqlx stores in `_sqlx_migrations.checksum`: SHA-384 of the file exactly as read, its
  /// CR and byte order mark included (python3's `hashlib.sha384(text.encode())`).
  @Test func sqlxChecksumIsTheFilesExactBytes() {
    let lf = ForeignChecksum(.sqlx, bytes: Array("CREATE TABLE b (x);\n".utf8))
    #expect(
      lf?.text == "b8a88bcc43dfd90fb3764fcf62e213c54715950f4d74bfb222baa6593a1887d401e0e4271542d50"
        + "beda46393fed12603"
    )
    let crlf = ForeignChecksum(.sqlx, bytes: Array("CREATE TABLE b (x);\r\n".utf8))
    #expect(crlf != lf)
    #expect(ForeignChecksum(.dbmate, bytes: []) == nil)
  }
}
