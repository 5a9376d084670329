/// CRC-32 (ISO-HDLC, the one of zlib and Java's `java.util.zip.CRC32`: polynomial 0xEDB88320
/// reflected, initial and final value 0xFFFFFFFF), which Flyway stores for each script it
/// applied (`flyway_schema_history.checksum`, see `ForeignChecksum`).
package enum CRC32 {
  /// The byte-at-a-time table.
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 {
      value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
    return value
  }

  /// The checksum of `bytes`.
  package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32
  where Bytes.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }
}
