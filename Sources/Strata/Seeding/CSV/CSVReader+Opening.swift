import Foundation

// Opening a file or standard input for `CSVReader`: regular files, and pipes, FIFOs and
// terminals, which are read once, front to back.
extension CSVReader {
  /// Opens a file for reading: a regular file, or a pipe, FIFO or `/dev/stdin`, which are
  /// read once, front to back.
  ///
  /// - Parameters:
  ///   - url: the file to read.
  ///   - chunkSize: how many bytes to read at a time.
  ///   - computeChecksum: also compute the SHA-256 of the bytes read (see `checksum`).
  ///   - maximumFieldBytes: the largest field or record accepted (see the type's summary).
  ///   - delimiter: the byte between fields (ASCII, not a quote or a line break).
  ///   - encoding: the file's text encoding, converted to UTF-8 as it is read.
  ///   - namedCompressed: the file's name says it is gzip (`.gz`): reading it fails unless it
  ///     starts with gzip's magic bytes. A file that starts with them is inflated either way.
  /// - Throws: `CSVError` (`readFailed`) when the file cannot be opened or read.
  public convenience init(
    url: URL,
    chunkSize: Int = 1 << 20,
    computeChecksum: Bool = false,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    delimiter: UInt8 = 0x2C,
    encoding: SeedEncoding = .utf8,
    namedCompressed: Bool = false
  )
    throws
  {
    var descriptor: Int32
    repeat {
      descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      throw CSVError(.readFailed, line: 1, column: 1, detail: String(cString: strerror(errno)))
    }
    try self.init(
      ownedDescriptor: descriptor,
      chunkSize: chunkSize,
      computeChecksum: computeChecksum,
      maximumFieldBytes: maximumFieldBytes,
      delimiter: delimiter,
      encoding: encoding,
      namedCompressed: namedCompressed
    )
  }

  /// Reads standard input (a pipe, a file or a terminal), through a duplicate of descriptor 0
  /// so the process's own standard input stays open.
  ///
  /// Gzip data (by its magic bytes) is inflated; `delimiter` and `encoding` are as for a file.
  ///
  /// - Throws: `CSVError` (`readFailed`) when standard input cannot be duplicated or read.
  public convenience init(
    standardInputWithChunkSize chunkSize: Int = 1 << 20,
    computeChecksum: Bool = false,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    delimiter: UInt8 = 0x2C,
    encoding: SeedEncoding = .utf8
  ) throws {
    let descriptor = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
    guard descriptor >= 0 else {
      throw CSVError(
        .readFailed,
        line: 1,
        column: 1,
        detail: "standard input: \(String(cString: strerror(errno)))"
      )
    }
    try self.init(
      ownedDescriptor: descriptor,
      chunkSize: chunkSize,
      computeChecksum: computeChecksum,
      maximumFieldBytes: maximumFieldBytes,
      delimiter: delimiter,
      encoding: encoding,
      namedCompressed: false
    )
  }

  /// Takes over `descriptor` (closed when the reader goes, or here on failure), read with
  /// `delimiter` and `encoding` (see `init(url:…)`).
  private convenience init(
    ownedDescriptor descriptor: Int32,
    chunkSize: Int,
    computeChecksum: Bool,
    maximumFieldBytes: Int,
    delimiter: UInt8,
    encoding: SeedEncoding,
    namedCompressed: Bool
  ) throws {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw CSVError(.readFailed, line: 1, column: 1, detail: reason)
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw CSVError(.readFailed, line: 1, column: 1, detail: "it is a directory")
    }
    let isRegular = (info.st_mode & S_IFMT) == S_IFREG
    self.init(
      raw: RawInput(source: .file(descriptor), computeChecksum: computeChecksum),
      chunkSize: chunkSize,
      totalBytes: isRegular ? Int64(info.st_size) : nil,
      maximumFieldBytes: maximumFieldBytes
    )
    self.delimiter = delimiter
    self.encoding = encoding
    self.namedCompressed = namedCompressed
  }
}
