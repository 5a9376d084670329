import Foundation

/// Missing values written as a token (`NA`, `\N`): the tokens real data sets commonly use, to
/// recognise one in a type error, and how many fields a file's null tokens turned into NULL.
enum SeedMissingValue {
  /// Tokens that data sets commonly write for a missing value (compared in any ASCII case): R's
  /// `NA`, spreadsheets' `#N/A`, PostgreSQL's and MySQL's `\N`, and the usual words and marks.
  static let commonTokens: Set<String> = [
    "na", "n/a", "#n/a", "nan", "null", "\\n", "-", "--", "none", "nil", "?", ".", "missing",
  ]

  /// The field as written when it is one of `commonTokens`; nil otherwise. Only such a token is
  /// ever shown in a message, never another cell value.
  static func commonToken(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.count <= 8 else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    return commonTokens.contains(asciiLowercased(text)) ? text : nil
  }
}

/// How many fields of one column a null token turned into NULL (`NA` → NULL in `name`, 3
/// times): a token that is also a real value of a TEXT column shows up here.
package struct SeedNullCount: Hashable, Sendable, Codable {
  /// The column.
  package let column: String
  /// The null token, as the file's format names it.
  package let token: String
  /// Unquoted fields equal to the token, loaded as NULL.
  package let count: Int

  /// A count of `count` fields of `column` that `token` made NULL.
  package init(column: String, token: String, count: Int) {
    self.column = column
    self.token = token
    self.count = count
  }
}
