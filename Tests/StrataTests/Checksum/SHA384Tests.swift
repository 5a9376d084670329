import Testing

@testable import Strata

/// SHA-384 against the FIPS 180-4 / NIST example vectors, and at the padding's edges.
@Suite struct SHA384Tests {
  @Test(arguments: [
    (
      "",
      "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
    ),
    (
      "abc",
      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
    ),
    // The 896-bit message, two blocks once padded.
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        + "lmnopqrsmnopqrstnopqrstu",
      "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
    ),
  ])
  func publishedVectors(message: String, digest: String) {
    #expect(SHA384.hex(Array(message.utf8)) == digest)
  }

  @Test func oneMillionAs() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA384.hex(message)
        == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"
    )
  }

  /// Lengths around the padding's edges (112 bytes leave no room for the length in the same
  /// block); the digests are python3's `hashlib.sha384(bytes((i * 31) & 255 for i in range(n)))`.
  @Test(arguments: [
    (
      111,
      "1027e3112580048fb8a1e49ed080279b728754e230eb2cc4603fd788320cf4890b9b4b4c60fe19c8df6ea144ad60af0d"
    ),
    (
      112,
      "6d587af81646c9ff6e369e9695c96da7c466f32f18c5caa85bb0f3d55726aadeb62f4b187f7bfa7fba2dd9940711c2a2"
    ),
    (
      127,
      "5d9beb3773cde565f82a53a19bb2b9e0d239670c8ebcc1b6964f1f5c9f0075e1710aa2dae08e2e986878d2bc05e6cb6a"
    ),
    (
      128,
      "3af5d690da34706d1ad24f9fb710d4f2a546488e74b03ef700c3cf8fcda94500319e26e175171ecfe1f238a3112c34a2"
    ),
    (
      129,
      "476a6f4becf65b7c5b5c4ea4f3509bf24e0290ae34bd76b9f5036a08e4dbeddee65e317be72f2870e737cc582f80e48a"
    ),
    (
      240,
      "97fd0fab3cb2b110e674387e3da6fca0411c13653e365a90feb01fd859c1fd91b5924ad8e78fcc4047ab4bbdaa075638"
    ),
  ])
  func paddingEdges(length: Int, digest: String) {
    let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(SHA384.hex(message) == digest)
    #expect(SHA384.digest(message).count == 48)
  }
}
