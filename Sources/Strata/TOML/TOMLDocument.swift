import Foundation

/// The values of the TOML subset strata's settings file is written in: strings, integers,
/// booleans, arrays of strings and inline tables of strings. Anything else TOML has (floats,
/// dates, arrays of tables, multi-line strings, dotted keys) is an error that says so.
enum TOMLValue: Hashable, Sendable {
  case string(String)
  case integer(Int64)
  case boolean(Bool)
  case strings([String])
  /// An inline table of strings, `{ "a" = "b" }`, in the order written.
  case table([TOMLPair])

  /// What the value is, in the words of an error message ("a string", "an integer").
  var kind: String {
    switch self {
    case .string: "a string"
    case .integer: "an integer"
    case .boolean: "a boolean"
    case .strings: "an array of strings"
    case .table: "an inline table"
    }
  }
}

/// One `key = "value"` of an inline table.
struct TOMLPair: Hashable, Sendable {
  let key: String
  let value: String
}

/// A place in the settings file: 1-based line and column (in characters).
struct TOMLPosition: Hashable, Sendable {
  let line: Int
  let column: Int
}

/// One `key = value` line of a table.
struct TOMLEntry: Hashable, Sendable {
  let key: String
  let value: TOMLValue
  /// Where the key starts.
  let position: TOMLPosition
}

/// A table: the root (path `[]`) or one opened by a `[header]`, with its entries in order.
struct TOMLTable: Hashable, Sendable {
  let path: [String]
  /// Where the header starts (line 1, column 1 for the root).
  let position: TOMLPosition
  var entries: [TOMLEntry] = []

  /// The path as written in a header: `seeds."penguins.csv"`.
  var header: String { TOMLTable.header(path) }

  static func header(_ path: [String]) -> String {
    path.map(tomlKey).joined(separator: ".")
  }
}

/// A parse failure: where, and what was wrong.
struct TOMLSyntaxError: Error, Hashable, Sendable {
  let position: TOMLPosition
  let reason: String
}

/// A parsed file: the root table first, then each `[header]` table in the order written.
struct TOMLDocument: Hashable, Sendable {
  var tables: [TOMLTable]
}

/// `key` as TOML writes it: bare when it can be, quoted otherwise.
func tomlKey(_ key: String) -> String {
  let bare = !key.isEmpty && key.unicodeScalars.allSatisfy(isBareKeyScalar)
  return bare ? key : tomlQuoted(key)
}

/// `text` as a TOML basic string, with the escapes TOML defines.
func tomlQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\t": out += "\\t"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
      out += String(format: "\\u%04X", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

/// A-Z, a-z, 0-9, `_` and `-`: the characters of a bare key.
func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar {
  case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
  default: false
  }
}
