/// A CSV file that is not strict RFC 4180 UTF-8, located by physical line and column.
///
/// Lines count every line break (CRLF, LF or a lone CR), including those inside quoted
/// fields, so `line` is what an editor shows. Columns count characters (UTF-8 code points)
/// from 1.
public struct CSVError: Error, Hashable, Sendable {
  /// What is wrong.
  package enum Problem: String, Hashable, Sendable, Codable {
    /// A quoted field never closes; the position is its opening quote.
    case unterminatedQuote
    /// Something other than a comma or a line break follows a closing quote.
    case textAfterClosingQuote
    /// A `"` inside a field that does not start with one.
    case quoteInUnquotedField
    /// Bytes that are not UTF-8; the position is the first bad byte.
    case invalidUTF8
    /// The file starts with a UTF-16 byte order mark.
    case utf16
    /// A NUL byte (0x00), which SQLite tools silently truncate at.
    case nulByte
    /// The file could not be read.
    case readFailed
    /// An unquoted field longer than the limit; the position is its first character.
    case fieldTooLarge
    /// A quoted field that does not close within the limit (most often a missing closing
    /// quote that makes the rest of the file one field); the position is its opening quote.
    case quotedFieldTooLarge
    /// A record longer than the limit although each field is within it; the position is the
    /// record's first character.
    case recordTooLarge
    /// A record with more fields than any SQLite row can have (`limit`:
    /// `CSVReader.maximumFieldCountLimit`); the position is the first field past the limit.
    case tooManyFields
    /// Bytes that the file's encoding does not define (`detail`: which, at which byte).
    case invalidEncoding
    /// Gzip data that is corrupt or truncated, or a `.gz` name on a file that is not gzip
    /// (`detail`: what, at which compressed byte).
    case corruptCompressedData
    /// A record with more fields than the header (`limit`: the header's width); the position
    /// is the first extra field.
    case moreFieldsThanHeader
  }

  /// What is wrong with the input.
  package let problem: Problem
  /// The physical line (1-based).
  public let line: Int
  /// The character column (1-based).
  public let column: Int
  /// For `readFailed`: the system's reason.
  public let detail: String?
  /// For the `…TooLarge` problems: the limit in bytes; for `tooManyFields` and
  /// `moreFieldsThanHeader`: the most fields a record may have.
  public let limit: Int?

  /// An error at `line` and `column`, with an optional detail (such as the system's reason for a
  /// failed read) and, for the `…TooLarge` problems, the limit.
  package init(
    _ problem: Problem,
    line: Int,
    column: Int,
    detail: String? = nil,
    limit: Int? = nil
  ) {
    self.problem = problem
    self.line = line
    self.column = column
    self.detail = detail
    self.limit = limit
  }

  /// What is wrong, in words, without the location.
  public var reason: String {
    switch problem {
    case .unterminatedQuote:
      "the quoted field opened here never closes (a missing closing \")"
    case .textAfterClosingQuote:
      "text after the closing quote of a quoted field (only a comma or a line break may follow)"
    case .quoteInUnquotedField:
      "a \" inside an unquoted field (quote the whole field and double the \": \"x\"\"y\")"
    case .invalidUTF8:
      "the bytes here are not UTF-8 (the file may be Latin-1 or Windows-1252)"
    case .utf16:
      "the file is UTF-16 (it starts with a UTF-16 byte order mark)"
    case .nulByte:
      "a NUL byte (0x00), which is never valid in a CSV text field"
    case .readFailed:
      "cannot read the file: \(detail ?? "unknown error")"
    case .fieldTooLarge:
      "the field starting here is larger than \(Self.describe(limit)), the most a field may hold"
    case .quotedFieldTooLarge:
      "the quoted field opened here does not close within \(Self.describe(limit)), the most a "
        + "field may hold (a missing closing \" makes the rest of the file one field)"
    case .recordTooLarge:
      "the record starting here is larger than \(Self.describe(limit)), the most a record "
        + "may hold"
    case .tooManyFields:
      "too many fields: field \(Self.next(limit)) starts here, but a record may have at most "
        + "\(limit.map(String.init) ?? "the limit") (SQLite's largest number of columns)"
    case .invalidEncoding:
      "the bytes here do not fit the file's encoding: \(detail ?? "an undefined byte")"
    case .corruptCompressedData:
      "the gzip data cannot be read: \(detail ?? "it is corrupt")"
    case .moreFieldsThanHeader:
      "too many fields: field \(Self.next(limit)) starts here, but the header has "
        + "\(limit.map(String.init) ?? "fewer")"
    }
  }

  /// The number of the first field past `limit` fields.
  private static func next(_ limit: Int?) -> String {
    guard let limit, limit < Int.max else { return "past the limit" }
    return String(limit + 1)
  }

  /// A byte count as `16 MiB (16777216 bytes)`, or just the bytes when not whole MiB.
  static func describe(_ limit: Int?) -> String {
    guard let limit else { return "the limit" }
    if limit >= 1 << 20, limit % (1 << 20) == 0 { return "\(limit >> 20) MiB (\(limit) bytes)" }
    return "\(limit) bytes"
  }
}

extension CSVError: CustomStringConvertible {
  /// `line:column: reason`, for logs.
  public var description: String { "\(line):\(column): \(reason)" }
}

/// A `StrataError` too, like the other lower-level public APIs' errors (`ScriptError`).
extension CSVError: StrataError {
  /// `line N, column M: reason`.
  public var message: String { "line \(line), column \(column): \(reason)" }
  /// The help of a malformed seed file: how to fix the CSV.
  public var help: String { SeedError.malformed(file: "", self).help }
}
