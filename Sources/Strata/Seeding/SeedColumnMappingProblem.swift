/// Why a file's header names (`SeedFileFormat.columns`, CSV header → column) cannot be used;
/// found before any row is read.
public enum SeedColumnMappingProblem: Hashable, Sendable {
  /// A mapped header is not in the file's header (headers are matched exactly as written).
  case headerNotInFile(header: String)
  /// A header is mapped to a column the table does not have (`columns` lists those it has).
  case noSuchColumn(header: String, column: String, columns: [String])
  /// Two headers are mapped to the same column.
  case sameColumn(column: String, headers: [String])

  func explanation(table: String) -> String {
    switch self {
    case .headerNotInFile(let header):
      return "header \(quotedHeader(header)) is mapped to a column, but the file's header has "
        + "no such column"
    case .noSuchColumn(let header, let column, let columns):
      let shown = columns.prefix(20).joined(separator: ", ")
      return "header \(quotedHeader(header)) is mapped to column \(quotedHeader(column)), but "
        + "table \(table) has no such column (columns: \(shown))"
    case .sameColumn(let column, let headers):
      return "headers \(headers.map(quotedHeader).joined(separator: " and ")) are both mapped "
        + "to column \(column)"
    }
  }

  var help: String {
    switch self {
    case .headerNotInFile:
      return "Map each header exactly as the file's first line writes it (case and spaces count)."
    case .noSuchColumn:
      return "Map the header to one of the table's columns."
    case .sameColumn:
      return "Map one header to each column."
    }
  }
}

/// A header or column name as written, visibly delimited.
private func quotedHeader(_ name: String) -> String {
  "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
