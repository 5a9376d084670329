import Testing

@testable import Strata

/// FIPS 180-4 / NIST CAVP example vectors.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        + "lmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func publishedVectors(message: String, digest: String) {
    #expect(SHA256.hex(message.utf8) == digest)
  }

  @Test func oneMillionAs() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA256.hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    )
  }

  @Test(arguments: [1, 7, 55, 56, 63, 64, 65, 1000])
  func streamingInChunksMatchesOneShot(chunk: Int) {
    let message = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var hasher = SHA256()
    var offset = 0
    while offset < message.count {
      hasher.update(message[offset..<min(message.count, offset + chunk)])
      offset += chunk
    }
    #expect(hasher.finalizeHex() == SHA256.hex(message))
  }
}
