/// How one seed file writes its data, for files that do not follow strata's defaults (UTF-8,
/// commas, an empty field for a missing value, headers that are the columns' names): real data
/// sets write `NA` for a missing value, come tab- or semicolon-separated or in Windows-1252.
/// Nothing is guessed: a file is read differently only when its format says so.
public struct SeedFileFormat: Hashable, Sendable {
  /// Unquoted fields equal to one of these mean NULL (such as `NA`, `N/A`, `\N`); a quoted
  /// field stays text, as in PostgreSQL's `COPY … CSV NULL`. An unquoted empty field is always
  /// NULL.
  public var nullTokens: [String]
  /// The character between fields: nil means by the file's name (tab for `.tsv`, otherwise a
  /// comma).
  public var delimiter: Character?
  /// The file's text encoding, converted to UTF-8 while it is read.
  public var encoding: SeedEncoding
  /// Headers that differ from their column's name, as CSV header → column.
  public var columns: [String: String]
  /// Read for settings written for strata 0.4, where a changed file of a table without a key
  /// was refused unless marked: such a file now always syncs by rowid (the file's rows
  /// replace strata's own earlier rows, the user's stay, nothing is duplicated), so the mark
  /// changes nothing. Not part of the options the ledger records.
  public var reload: Bool

  /// A format; the defaults are strata's (UTF-8, the delimiter by the file's name, no null
  /// tokens, headers that are the columns' names).
  public init(
    nullTokens: [String] = [],
    delimiter: Character? = nil,
    encoding: SeedEncoding = .utf8,
    columns: [String: String] = [:],
    reload: Bool = false
  ) {
    self.reload = reload
    self.nullTokens = nullTokens
    self.delimiter = delimiter
    self.encoding = encoding
    self.columns = columns
  }

  /// Whether this is strata's default format, which the ledger records as it always has.
  package var isDefault: Bool { self == SeedFileFormat() }
}

/// The text encodings a seed file can be read in.
public enum SeedEncoding: String, Hashable, Sendable, Codable, CaseIterable {
  /// UTF-8, strictly: an invalid byte is an error (the default).
  case utf8 = "utf-8"
  /// Windows-1252 (the usual "ANSI" of Western European Windows).
  case windows1252 = "windows-1252"
  /// ISO 8859-1.
  case latin1 = "latin-1"
  /// UTF-16 with a byte order mark, which says the byte order.
  case utf16 = "utf-16"
  /// UTF-16, little-endian.
  case utf16LE = "utf-16le"
  /// UTF-16, big-endian.
  case utf16BE = "utf-16be"
}
