import Foundation

// Which files are seed files, the table each loads, and how its bytes are read: the delimiter
// by its name or its format, gzip by its magic bytes, its encoding by its format.
extension SeedFile {
  /// The names a seeds folder loads: `.csv` and `.tsv`, each also gzipped (`.csv.gz`).
  static let dataSuffixes = [".csv", ".tsv"]
  /// The suffix of a gzipped seed file.
  static let compressedSuffix = ".gz"

  /// Whether `name` is a seed file's: `people.csv`, `people.tsv`, `people.csv.gz`,
  /// `people.tsv.gz` (any case).
  static func isSeedFileName(_ name: String) -> Bool {
    let lower = uncompressedName(name).lowercased()
    return dataSuffixes.contains { lower.hasSuffix($0) }
  }

  /// The table a file loads by default: its name without `.gz` and then its extension
  /// (`people.csv.gz` → `people`).
  static func table(forFileAt url: URL) -> String {
    URL(fileURLWithPath: uncompressedName(url.lastPathComponent)).deletingPathExtension()
      .lastPathComponent
  }

  /// `name` without a trailing `.gz`.
  private static func uncompressedName(_ name: String) -> String {
    name.lowercased().hasSuffix(compressedSuffix)
      ? String(name.dropLast(compressedSuffix.count)) : name
  }

  /// Whether the file's name says it is gzipped; it must then start with gzip's magic bytes.
  var isNamedCompressed: Bool {
    !isStandardInput && url.lastPathComponent.lowercased().hasSuffix(Self.compressedSuffix)
  }

  /// The byte between fields: the format's delimiter, else a tab for a `.tsv` name (gzipped
  /// or not), else a comma.
  ///
  /// - Throws: `SeedError.invalidDelimiter` when the format's delimiter is not one ASCII
  ///   character other than a quote or a line break.
  func delimiterByte() throws -> UInt8 {
    if let delimiter = format.delimiter {
      guard let byte = SeedFileFormat.delimiterByte(delimiter) else {
        throw SeedError.invalidDelimiter(file: displayPath, delimiter: String(delimiter))
      }
      return byte
    }
    let name = Self.uncompressedName(url.lastPathComponent).lowercased()
    return !isStandardInput && name.hasSuffix(".tsv") ? 0x09 : 0x2C
  }

  /// A reader of the file (or standard input) with its delimiter, its encoding and, when it
  /// is gzip, inflation.
  ///
  /// - Throws: `SeedError.invalidDelimiter`, or `CSVError` when the file cannot be opened.
  func openReader(
    chunkSize: Int,
    computeChecksum: Bool,
    maximumFieldBytes: Int
  ) throws -> CSVReader {
    let delimiter = try delimiterByte()
    if isStandardInput {
      return try CSVReader(
        standardInputWithChunkSize: chunkSize,
        computeChecksum: computeChecksum,
        maximumFieldBytes: maximumFieldBytes,
        delimiter: delimiter,
        encoding: format.encoding
      )
    }
    return try CSVReader(
      url: url,
      chunkSize: chunkSize,
      computeChecksum: computeChecksum,
      maximumFieldBytes: maximumFieldBytes,
      delimiter: delimiter,
      encoding: format.encoding,
      namedCompressed: isNamedCompressed
    )
  }
}

extension SeedFileFormat {
  /// `delimiter` as the byte the reader compares, or nil when it cannot be one: it must be a
  /// single ASCII character other than the quote and the line breaks (a tab is fine).
  public static func delimiterByte(_ delimiter: Character) -> UInt8? {
    guard let ascii = delimiter.asciiValue, ascii != 0x22, ascii != 0x0A, ascii != 0x0D,
      ascii != 0x00
    else { return nil }
    return ascii
  }
}
