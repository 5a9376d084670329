import Testing

@testable import Strata

/// The checksum that seals `status`'s kept copies, taken a word at a time with the bytes past
/// the last whole word one by one: a bit flipped anywhere, in either part, must change it.
@Suite struct CacheFileChecksumTests {
  @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 31])
  func everyFlippedBitChangesTheChecksum(length: Int) {
    let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let whole = CacheFile.checksum(bytes[...])
    for offset in 0..<length {
      for bit in 0..<8 {
        var flipped = bytes
        flipped[offset] ^= 1 << bit
        #expect(CacheFile.checksum(flipped[...]) != whole, "byte \(offset), bit \(bit)")
      }
    }
  }

  @Test func aSliceIsCheckedByItsOwnBytes() {
    let bytes: [UInt8] = Array(0..<40)
    #expect(CacheFile.checksum(bytes[3..<30]) == CacheFile.checksum(Array(bytes[3..<30])[...]))
    #expect(CacheFile.checksum(bytes[3..<30]) != CacheFile.checksum(bytes[4..<31]))
  }

  @Test func aLongerRunOfTheSameBytesIsAnotherChecksum() {
    // Zero words must not leave the hash where it was.
    let zeros = [UInt8](repeating: 0, count: 64)
    #expect(CacheFile.checksum(zeros[..<8]) != CacheFile.checksum(zeros[..<16]))
    #expect(CacheFile.checksum(zeros[..<0]) != CacheFile.checksum(zeros[..<8]))
  }
}
