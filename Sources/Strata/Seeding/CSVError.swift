/// A CSV file that is not strict RFC 4180 UTF-8, located by physical line and column.
///
/// Lines count every line break (CRLF, LF or a lone CR), including those inside quoted
/// fields, so `line` is what an editor shows. Columns count characters (UTF-8 code points)
/// from 1.
public struct CSVError: Error, Hashable, Sendable {
  /// What is wrong.
  public enum Problem: String, Hashable, Sendable, Codable {
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
  }

  public let problem: Problem
  /// The physical line (1-based).
  public let line: Int
  /// The character column (1-based).
  public let column: Int
  /// For `readFailed`: the system's reason.
  public let detail: String?

  public init(_ problem: Problem, line: Int, column: Int, detail: String? = nil) {
    self.problem = problem
    self.line = line
    self.column = column
    self.detail = detail
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
    }
  }
}

extension CSVError: CustomStringConvertible {
  public var description: String { "\(line):\(column): \(reason)" }
}
