// How the `strata_seeds` ledger records a file's format: as the settings file writes it, so a
// person reading the ledger sees the options, and empty for strata's defaults (what every
// ledger row recorded before options existed).
extension SeedFileFormat {
  /// The fields that differ from strata's defaults, as settings-file text in a fixed order
  /// (`null = ["NA"], delimiter = "\t"`); the null tokens sorted and the header names sorted,
  /// since their order does not change what is loaded. Empty for the default format.
  var ledgerOptions: String {
    var parts: [String] = []
    let tokens = Set(nullTokens).sorted()
    if !tokens.isEmpty {
      parts.append("null = [\(tokens.map(tomlQuoted).joined(separator: ", "))]")
    }
    if let delimiter { parts.append("delimiter = \(tomlQuoted(String(delimiter)))") }
    if encoding != .utf8 { parts.append("encoding = \(tomlQuoted(encoding.rawValue))") }
    if !columns.isEmpty {
      let pairs = columns.sorted { $0.key < $1.key }
        .map { "\(tomlQuoted($0.key)) = \(tomlQuoted($0.value))" }
      parts.append("columns = { \(pairs.joined(separator: ", ")) }")
    }
    return parts.joined(separator: ", ")
  }
}
