/// SHA-256 (FIPS 180-4), written here because the package takes no outside dependencies.
///
/// Streaming: feed bytes with `update`, read the digest with `finalizeHex`. ``hex(buffer:)``
/// hashes bytes already in memory without copying them. The state is eight words held in the
/// value and the message schedule a stack buffer, so hashing allocates nothing but the digest
/// (`strata status` hashes every migration file).
package struct SHA256: Sendable {
  /// The round constants, read through a pointer in the rounds (no bounds checks).
  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// The eight working words of the hash.
  private struct State: Sendable {
    var a: UInt32 = 0x6a09_e667
    var b: UInt32 = 0xbb67_ae85
    var c: UInt32 = 0x3c6e_f372
    var d: UInt32 = 0xa54f_f53a
    var e: UInt32 = 0x510e_527f
    var f: UInt32 = 0x9b05_688c
    var g: UInt32 = 0x1f83_d9ab
    var h: UInt32 = 0x5be0_cd19
  }

  private var state = State()
  /// A partial block, kept between `update` calls (empty when one-shot).
  private var pending: [UInt8] = []
  private var totalBytes: UInt64 = 0

  /// An empty hash, ready for ``update(_:)``.
  package init() {}

  /// Adds bytes to the message.
  package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    let handled: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: $0) }
    if handled == nil {
      let copy = Array(bytes)
      copy.withUnsafeBufferPointer { update(buffer: $0) }
    }
  }

  /// Adds bytes straight from memory: whole blocks are compressed in place, only a partial
  /// block is kept.
  package mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
    var offset = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, buffer.count)
      pending.append(contentsOf: buffer[0..<take])
      offset = take
      guard pending.count == 64 else { return }
      pending.withUnsafeBufferPointer { full in
        if let block = full.baseAddress { Self.compress(&state, blocks: block, count: 1) }
      }
      pending.removeAll(keepingCapacity: true)
      totalBytes &+= 64
    }
    let blocks = (buffer.count - offset) / 64
    if blocks > 0 {
      Self.compress(&state, blocks: base + offset, count: blocks)
      offset += blocks * 64
      totalBytes &+= UInt64(blocks * 64)
    }
    if offset < buffer.count {
      pending.append(contentsOf: buffer[offset...])
    }
  }

  /// The digest of `bytes`, as 64 lowercase hex digits.
  package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    if let digest = bytes.withContiguousStorageIfAvailable({ hex(buffer: $0) }) { return digest }
    return Array(bytes).withUnsafeBufferPointer { hex(buffer: $0) }
  }

  /// The digest of the bytes in `buffer`, as 64 lowercase hex digits, read where they are.
  package static func hex(buffer: UnsafeBufferPointer<UInt8>) -> String {
    var state = State()
    let blocks = buffer.count / 64
    if blocks > 0, let base = buffer.baseAddress {
      compress(&state, blocks: base, count: blocks)
    }
    let tail = UnsafeBufferPointer(rebasing: buffer[(blocks * 64)...])
    finish(&state, tail: tail, totalBytes: UInt64(buffer.count))
    return hexDigits(state)
  }

  /// The digest as 64 lowercase hex digits.
  package func finalizeHex() -> String {
    var state = self.state
    pending.withUnsafeBufferPointer { tail in
      Self.finish(&state, tail: tail, totalBytes: totalBytes &+ UInt64(tail.count))
    }
    return Self.hexDigits(state)
  }

  /// Pads the last partial block (`tail`, under 64 bytes) with the message's length in bits,
  /// and compresses the one or two blocks that makes.
  private static func finish(
    _ state: inout State,
    tail: UnsafeBufferPointer<UInt8>,
    totalBytes: UInt64
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { padded in
      guard let base = padded.baseAddress else { return }
      let count = tail.count
      if let source = tail.baseAddress, count > 0 { base.initialize(from: source, count: count) }
      base[count] = 0x80
      let blocks = count < 56 ? 1 : 2
      let end = blocks * 64
      (base + count + 1).initialize(repeating: 0, count: end - count - 1)
      let bits = totalBytes &* 8
      for index in 0..<8 {
        base[end - 1 - index] = UInt8(truncatingIfNeeded: bits >> UInt64(index * 8))
      }
      compress(&state, blocks: UnsafePointer(base), count: blocks)
    }
  }

  private static func hexDigits(_ state: State) -> String {
    String(unsafeUninitializedCapacity: 64) { out in
      var index = 0
      for word in [state.a, state.b, state.c, state.d, state.e, state.f, state.g, state.h] {
        var shift: UInt32 = 28
        for _ in 0..<8 {
          let nibble = UInt8(truncatingIfNeeded: (word >> shift) & 0xF)
          out[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
          index += 1
          shift &-= 4
        }
      }
      return 64
    }
  }

  /// Compresses `count` 64-byte blocks starting at `blocks` into `state`.
  private static func compress(
    _ state: inout State,
    blocks: UnsafePointer<UInt8>,
    count: Int
  ) {
    k.withUnsafeBufferPointer { constants in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
        guard let k = constants.baseAddress, let w = schedule.baseAddress else { return }
        for block in 0..<count {
          compressBlock(&state, blocks + block * 64, w, k)
        }
      }
    }
  }

  @inline(__always)
  private static func compressBlock(
    _ state: inout State,
    _ block: UnsafePointer<UInt8>,
    _ w: UnsafeMutablePointer<UInt32>,
    _ k: UnsafePointer<UInt32>
  ) {
    for t in 0..<16 {
      let i = t &* 4
      w[t] =
        UInt32(block[i]) << 24 | UInt32(block[i &+ 1]) << 16 | UInt32(block[i &+ 2]) << 8
        | UInt32(block[i &+ 3])
    }
    for t in 16..<64 {
      let x = w[t &- 15]
      let y = w[t &- 2]
      let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
      let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
      w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
    }
    var a = state.a
    var b = state.b
    var c = state.c
    var d = state.d
    var e = state.e
    var f = state.f
    var g = state.g
    var h = state.h
    // Eight rounds a turn, each naming the words where they stand, so that no word is moved
    // from one variable to the next between rounds.
    var t = 0
    while t < 64 {
      round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
      round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
      round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
      round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
      round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
      round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
      round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6])
      round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7])
      t &+= 8
    }
    state.a &+= a
    state.b &+= b
    state.c &+= c
    state.d &+= d
    state.e &+= e
    state.f &+= f
    state.g &+= g
    state.h &+= h
  }
}

/// One round of FIPS 180-4's compression: `d` takes the new `e`, `h` the new `a`; the caller
/// renames the eight words for the next round.
@inline(__always)
private func round(
  _ a: UInt32,
  _ b: UInt32,
  _ c: UInt32,
  _ d: inout UInt32,
  _ e: UInt32,
  _ f: UInt32,
  _ g: UInt32,
  _ h: inout UInt32,
  _ constantAndWord: UInt32
) {
  let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
  let choice = (e & f) ^ (~e & g)
  let t1 = h &+ s1 &+ choice &+ constantAndWord
  let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
  let majority = (a & b) ^ (a & c) ^ (b & c)
  d &+= t1
  h = t1 &+ s0 &+ majority
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    // Masking shifts, which the compiler turns into one rotate instruction.
    (self &>> count) | (self &<< (32 &- count))
  }
}
