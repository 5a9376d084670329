/// Quotes an SQL identifier, doubling embedded double quotes: `a"b` → `"a""b"`.
package func quoteIdentifier(_ name: String) -> String {
  "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Quotes an SQL string literal, doubling embedded single quotes.
package func quoteLiteral(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

/// A name as a person reads it: bare when it is a plain word, SQL-quoted when it holds
/// anything else (spaces, quotes, punctuation) or starts with a digit, so it is never
/// ambiguous. Non-ASCII letters are plain, as SQLite reads them.
package func displayIdentifier(_ name: String) -> String {
  guard let first = name.unicodeScalars.first else { return quoteIdentifier(name) }
  let plain = name.unicodeScalars.allSatisfy { scalar in
    scalar == "_" || (scalar.isASCII ? isASCIIAlphanumeric(scalar) : scalar.properties.isAlphabetic)
      || (!scalar.isASCII && scalar.properties.numericType != nil)
  }
  let startsWell = !(first.isASCII && first.value >= 0x30 && first.value <= 0x39)
  return plain && startsWell ? name : quoteIdentifier(name)
}

private func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
    || (value >= 0x61 && value <= 0x7A)
}

extension String {
  /// Without the white space SQL allows around an expression.
  func trimmingSQLSpace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
