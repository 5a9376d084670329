import StrataZlib

/// Inflates a gzip file as it is read, through the system zlib (the one file that uses it):
/// never unpacked to disk, never held whole. Several gzip members one after another (what
/// `cat a.gz b.gz` makes) read as one text, as `gunzip` reads them. Corrupt data, data after
/// the end, or a file that ends before its gzip stream does, stop it: the text inflated
/// before is delivered, then the next read throws.
final class GzipInput: CSVInput {
  /// The two bytes every gzip file starts with.
  static let magic: [UInt8] = [0x1F, 0x8B]

  private let upstream: any CSVInput
  private var stream = z_stream()
  private let input: UnsafeMutablePointer<UInt8>
  private let inputCapacity = 1 << 18
  /// Compressed bytes given to zlib before the current input buffer.
  private var compressedBefore: Int64 = 0
  private var inputCount = 0
  private var upstreamAtEnd = false
  /// Between two members: the last one ended, the next has not started.
  private var memberEnded = false
  private var failure: CSVInputFailure?

  init(upstream: any CSVInput) throws {
    self.upstream = upstream
    input = .allocate(capacity: inputCapacity)
    guard strata_inflate_init_gzip(&stream) == Z_OK else {
      input.deallocate()
      throw CSVError(.readFailed, line: 1, column: 1, detail: "zlib could not start inflating")
    }
  }

  deinit {
    inflateEnd(&stream)
    input.deallocate()
  }

  func read(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws -> Int {
    if let failure { throw failure }
    while true {
      if stream.avail_in == 0 && !upstreamAtEnd {
        compressedBefore += Int64(inputCount)
        inputCount = try upstream.read(into: input, room: inputCapacity)
        if inputCount == 0 { upstreamAtEnd = true }
        stream.next_in = input
        stream.avail_in = UInt32(inputCount)
      }
      if memberEnded {
        if stream.avail_in == 0 && upstreamAtEnd { return 0 }
        if stream.avail_in > 0 && stream.next_in[0] != Self.magic[0] {
          return try stop("data that is not gzip after the end of the compressed stream")
        }
        memberEnded = false
        inflateReset(&stream)
      }
      stream.next_out = destination
      stream.avail_out = UInt32(min(room, Int(UInt32.max)))
      let status = inflate(&stream, Z_NO_FLUSH)
      let written = room - Int(stream.avail_out)
      switch status {
      case Z_STREAM_END:
        memberEnded = true
      case Z_OK, Z_BUF_ERROR:
        if written == 0 && stream.avail_in == 0 && upstreamAtEnd {
          return try stop("the file ends before its gzip stream does (it is truncated)")
        }
      default:
        let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        let failure = failure(reason)
        self.failure = failure
        if written == 0 { throw failure }
      }
      if written > 0 { return written }
    }
  }

  /// Fails now: nothing more can be inflated.
  private func stop(_ reason: String) throws -> Int {
    let failure = failure(reason)
    self.failure = failure
    throw failure
  }

  private func failure(_ reason: String) -> CSVInputFailure {
    let at = compressedBefore + Int64(inputCount - Int(stream.avail_in))
    return CSVInputFailure(
      problem: .corruptCompressedData,
      detail: "\(reason), at compressed byte offset \(at)"
    )
  }
}
