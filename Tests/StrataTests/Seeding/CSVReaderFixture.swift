import Strata

/// Reads CSV text the way the reader tests do: from memory, in chunks of a chosen size (tiny
/// chunks put a refill at every byte), returning the records or the `CSVError` thrown.
enum ChunkedCSV {
  /// Every record of `bytes`, read `chunkSize` bytes at a time.
  ///
  /// - Parameter headerWidth: when given, the first record is read, then the reader is told the
  ///   header has this many fields (as the seeder does) before the rest is read.
  static func read(
    _ bytes: [UInt8],
    chunkSize: Int,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    headerWidth: Int? = nil
  ) throws -> [CSVRecord] {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize, maximumFieldBytes: maximumFieldBytes)
    var records: [CSVRecord] = []
    if let headerWidth {
      if let header = try reader.nextRecord() { records.append(header) }
      reader.limitFields(toHeaderWidth: headerWidth)
    }
    return try records + reader.readAll()
  }

  /// The `CSVError` reading `bytes` throws, or nil when it reads (or throws something else).
  static func failure(
    _ bytes: [UInt8],
    chunkSize: Int,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    headerWidth: Int? = nil
  ) -> CSVError? {
    do {
      _ = try read(
        bytes,
        chunkSize: chunkSize,
        maximumFieldBytes: maximumFieldBytes,
        headerWidth: headerWidth
      )
      return nil
    } catch let error as CSVError {
      return error
    } catch {
      return nil
    }
  }

  /// `failure(_:…)` for text.
  static func failure(
    _ text: String,
    chunkSize: Int,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    headerWidth: Int? = nil
  ) -> CSVError? {
    failure(
      Array(text.utf8),
      chunkSize: chunkSize,
      maximumFieldBytes: maximumFieldBytes,
      headerWidth: headerWidth
    )
  }
}
