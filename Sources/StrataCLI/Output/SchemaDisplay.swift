import Foundation
import Strata
import StrataArguments

/// The schema as `inspect` shows it to a person (text, Markdown, Mermaid): every name and
/// value with its controls escaped (`escapingControls`), and in the CREATE statements the line
/// breaks inside a quoted name, a string or a `/* */` comment written as `\u{A}`, so that a
/// table named "a\nError: …" cannot start a line of its own. The statements' own line breaks
/// stay.
///
/// The library renders for any reader; the terminal rule is applied here, at the CLI's
/// boundary, and the renderers apply it where they print each value (`SchemaEscaping`).
/// `--format sql` and `--format json` never come through here: SQL follows `SQLOutput`
/// (SQLite's exact text to a file or a pipe, which sqlite3 reads back; escaped on a terminal),
/// and JSON escapes as JSON does.
package enum SchemaDisplay {
  /// The terminal rule, as the renderers take it.
  package static let escaping = SchemaEscaping(
    text: { escapingControls($0) },
    statement: { SchemaDisplay.escapingQuotedLineBreaks($0) }
  )

  /// `schema` written in `format` (text, Markdown or Mermaid) for a person; `databaseName` is
  /// written as given, already escaped.
  ///
  /// - Throws: `EncodingError` for JSON, which does not come through here.
  package static func rendered(
    _ schema: Schema,
    as format: SchemaFormat,
    databaseName: String?
  ) throws -> String {
    try schema.rendered(as: format, databaseName: databaseName, escaping: escaping)
  }

  /// `sql` with the line breaks inside `"…"`, `` `…` ``, `[…]`, `'…'` and `/* … */` written as
  /// `\u{A}` and `\u{D}`, so that no text from a database starts a line of its own; those
  /// between tokens (and the one that ends a `--` comment) are the statement's layout and stay.
  static func escapingQuotedLineBreaks(_ sql: String) -> String {
    let scalars = Array(sql.unicodeScalars)
    var shown = String.UnicodeScalarView()
    var closer: Unicode.Scalar?
    var inLineComment = false
    var inBlockComment = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      let next = index + 1 < scalars.count ? scalars[index + 1] : nil
      if let quote = closer {
        if scalar == quote {
          shown.append(scalar)
          if quote != "]", next == quote {
            shown.append(quote)
            index += 1
          } else {
            closer = nil
          }
        } else if scalar == "\n" || scalar == "\r" {
          shown.append(contentsOf: (scalar == "\n" ? "\\u{A}" : "\\u{D}").unicodeScalars)
        } else {
          shown.append(scalar)
        }
      } else if inBlockComment, scalar == "\n" || scalar == "\r" {
        shown.append(contentsOf: (scalar == "\n" ? "\\u{A}" : "\\u{D}").unicodeScalars)
      } else {
        shown.append(scalar)
        if inLineComment {
          inLineComment = scalar != "\n"
        } else if inBlockComment {
          if scalar == "*", next == "/" {
            shown.append("/")
            index += 1
            inBlockComment = false
          }
        } else if scalar == "-", next == "-" {
          inLineComment = true
        } else if scalar == "/", next == "*" {
          shown.append("*")
          index += 1
          inBlockComment = true
        } else if scalar == "\"" || scalar == "`" || scalar == "'" {
          closer = scalar
        } else if scalar == "[" {
          closer = "]"
        }
      }
      index += 1
    }
    return String(shown)
  }
}
