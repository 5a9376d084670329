import Foundation

/// The ways a `Schema` can be written out.
package enum SchemaFormat: String, CaseIterable, Sendable {
  /// Aligned, for a terminal 80 columns wide.
  case text
  /// Stable keys, sorted, with a top-level `"format": 1`.
  case json
  /// The CREATE statements in a deterministic order, to commit as `schema.sql`.
  case sql
  /// One section per table, as tbls does.
  case markdown
  /// A Mermaid `erDiagram`.
  case mermaid
}

extension Schema {
  /// The schema written in `format`.
  ///
  /// - Parameter format: text, JSON, SQL, Markdown or a Mermaid diagram.
  /// - Parameter databaseName: how the text and Markdown headings name the file (nothing when
  ///   nil); JSON, SQL and Mermaid never include it, so they do not change with the path.
  /// - Throws: `EncodingError` when the JSON encoder fails; the other formats do not throw.
  package func rendered(as format: SchemaFormat, databaseName: String? = nil) throws -> String {
    try rendered(as: format, databaseName: databaseName, escaping: .none)
  }

  /// The schema written in `format`, text, Markdown and Mermaid with every value from the
  /// database passed through `escaping` where it is printed; `databaseName` is written as
  /// given. JSON and SQL ignore `escaping`.
  ///
  /// - Throws: `EncodingError` when the JSON encoder fails; the other formats do not throw.
  package func rendered(
    as format: SchemaFormat,
    databaseName: String?,
    escaping: SchemaEscaping
  ) throws -> String {
    switch format {
    case .text:
      TextSchemaRenderer(schema: self, databaseName: databaseName, escaping: escaping).render()
    case .json: try JSONSchemaRenderer.render(self)
    case .sql: SQLSchemaRenderer(schema: self).render()
    case .markdown:
      MarkdownSchemaRenderer(schema: self, databaseName: databaseName, escaping: escaping)
        .render()
    case .mermaid: MermaidSchemaRenderer(schema: self, escaping: escaping).render()
    }
  }

  /// Tables, indexes, views and triggers of the user's schema (strata's and shadow tables left
  /// out), for summaries.
  var counts: (tables: Int, indexes: Int, views: Int, triggers: Int) {
    (tables.count, tables.reduce(0) { $0 + $1.indexes.count }, views.count, triggers.count)
  }
}

/// JSON as strata writes it, in one configuration for the schema and the CLI's reports: keys
/// sorted, so two runs on one value are byte for byte equal; pretty-printed; slashes unescaped;
/// a line break at the end.
package enum JSONSchemaRenderer {
  /// The encoder in that configuration, for a caller that encodes on its own.
  package static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// `value` as JSON, ending with a line break.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded.
  package static func render<Value: Encodable>(_ value: Value) throws -> String {
    String(decoding: try encoder().encode(value), as: UTF8.self) + "\n"
  }
}

/// Columns padded to line up, two spaces apart; the last column is not padded and no line
/// ends in spaces. The one table layout of the schema's text and the CLI's tables.
///
/// - Parameter indent: written before every line.
/// - Parameter droppingEmptyColumns: leave out a column that is empty in every row but the
///   first (the header).
package func alignedRows(
  _ rows: [[String]],
  indent: String = "",
  droppingEmptyColumns: Bool = true
) -> [String] {
  let table = MeasuredTable(rows, indent: indent, droppingEmptyColumns: droppingEmptyColumns)
  return table.rows.indices.map { index in
    if table.isASCII[index] {
      var bytes: [UInt8] = []
      table.appendASCIILine(index, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    return table.line(index)
  }
}

/// `alignedRows`' lines, each ended by a line feed, in one string: built in one buffer (a
/// status of 1,000 migrations is one block, not 1,000 lines joined).
package func alignedBlock(
  _ rows: [[String]],
  indent: String = "",
  droppingEmptyColumns: Bool = true
) -> String {
  let table = MeasuredTable(rows, indent: indent, droppingEmptyColumns: droppingEmptyColumns)
  var bytes: [UInt8] = []
  bytes.reserveCapacity(table.rows.count * (table.lineWidth + 1))
  for index in table.rows.indices {
    if table.isASCII[index] {
      table.appendASCIILine(index, to: &bytes)
    } else {
      bytes += table.line(index).utf8
    }
    bytes.append(0x0A)
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// The rows of an aligned table with each cell measured once (a status of 1,000 migrations
/// has 4,000), in characters: the one layout behind `alignedRows` and `alignedBlock`.
private struct MeasuredTable {
  /// The rows with only the columns shown, each as wide as the widest row.
  let rows: [[String]]
  /// Each cell's width in characters, row after row.
  let counts: [Int]
  let widths: [Int]
  /// Rows laid out as bytes: plain ASCII, indent included.
  let isASCII: [Bool]
  let indent: String

  init(_ given: [[String]], indent: String, droppingEmptyColumns: Bool) {
    let columnCount = given.map(\.count).max() ?? 0
    let used = (0..<columnCount).filter { column in
      !droppingEmptyColumns
        || given.dropFirst().contains { column < $0.count && !$0[column].isEmpty }
    }
    // Copied only when a column goes or a row is short.
    rows =
      used.count == columnCount && given.allSatisfy({ $0.count == columnCount })
      ? given : given.map { row in used.map { $0 < row.count ? row[$0] : "" } }
    let indentIsASCII = isPlainASCII(indent)
    var counts: [Int] = []
    counts.reserveCapacity(rows.count * used.count)
    var widths = [Int](repeating: 0, count: used.count)
    var isASCII: [Bool] = []
    isASCII.reserveCapacity(rows.count)
    for row in rows {
      var ascii = indentIsASCII
      for (column, cell) in row.enumerated() {
        let plain = isPlainASCII(cell)
        let count = plain ? cell.utf8.count : cell.count
        ascii = ascii && plain
        counts.append(count)
        widths[column] = max(widths[column], count)
      }
      isASCII.append(ascii)
    }
    self.counts = counts
    self.widths = widths
    self.isASCII = isASCII
    self.indent = indent
  }

  /// The longest a line can be, in bytes of an ASCII row.
  var lineWidth: Int { indent.utf8.count + widths.reduce(0, +) + 2 * widths.count }

  /// An ASCII row laid out as bytes: one character per byte, so a trailing space byte is a
  /// trailing space.
  func appendASCIILine(_ index: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    bytes += indent.utf8
    let row = rows[index]
    for (column, cell) in row.enumerated() {
      bytes += cell.utf8
      if column < row.count - 1 {
        bytes += repeatElement(0x20, count: max(widths[column] - cell.utf8.count, 0) + 2)
      }
    }
    while bytes.count > start, bytes.last == 0x20 { bytes.removeLast() }
  }

  /// Any row, laid out as characters.
  func line(_ index: Int) -> String {
    let row = rows[index]
    var line = indent
    line.reserveCapacity(lineWidth)
    for (column, cell) in row.enumerated() {
      line += cell
      if column < row.count - 1 {
        let count = counts[index * widths.count + column]
        line += String(repeating: " ", count: max(widths[column] - count, 0) + 2)
      }
    }
    // A trailing space byte first: `last` works out the whole last character.
    while line.utf8.last == 0x20, line.last == " " { line.removeLast() }
    return line
  }
}

/// ASCII without a carriage return (with a line feed after it, the two are one character).
private func isPlainASCII(_ text: String) -> Bool {
  // Over the bytes in place where the string has them so (a native string always does).
  let inPlace = text.utf8.withContiguousStorageIfAvailable { bytes in
    bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
  }
  return inPlace ?? text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
}

/// "1 row", "3 rows", "rows unknown".
func rowsText(_ count: Int64?) -> String {
  guard let count else { return "rows unknown" }
  return count == 1 ? "1 row" : "\(count) rows"
}

/// "24 KiB", "1.5 MiB".
func sizeText(_ bytes: Int64) -> String {
  if bytes < 1024 { return "\(bytes) bytes" }
  let units = ["KiB", "MiB", "GiB", "TiB"]
  var value = Double(bytes) / 1024
  var unit = 0
  while value >= 1024, unit < units.count - 1 {
    value /= 1024
    unit += 1
  }
  let rounded = value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
  return rounded.replacingOccurrences(of: ".0", with: "") + " " + units[unit]
}

extension Schema.Table {
  /// Per column: "PK", "PK 2", "FK", "UK", joined ("PK, FK").
  func keyMarkers(for column: Schema.Column) -> [String] {
    var markers: [String] = []
    if column.primaryKeyPosition > 0 {
      markers.append(primaryKey.count > 1 ? "PK \(column.primaryKeyPosition)" : "PK")
    }
    if foreignKeys.contains(where: { $0.columns.contains { sameName($0, column.name) } }) {
      markers.append("FK")
    }
    let isUnique = indexes.contains { index in
      index.unique && index.partialWhere == nil && index.columns.count == 1
        && index.columns[0].name.map { sameName($0, column.name) } == true
        && index.origin != .primaryKey
    }
    if isUnique { markers.append("UK") }
    return markers
  }

  /// What else a person should know about a column: generated, hidden, collation; its
  /// expression and collation written through `shown`.
  func notes(for column: Schema.Column, shown: (String) -> String) -> [String] {
    var notes: [String] = []
    if let generated = column.generated {
      notes.append(
        "generated \(generated.rawValue)"
          + (column.generatedExpression.map { " AS (\(shown($0)))" } ?? "")
      )
    }
    if column.isRowIDAlias { notes.append("rowid alias") }
    if column.hidden { notes.append("hidden") }
    if let collation = column.collation { notes.append("COLLATE \(shown(collation))") }
    return notes
  }

  /// "WITHOUT ROWID", "STRICT", "AUTOINCREMENT".
  var options: [String] {
    var options: [String] = []
    if withoutRowID { options.append("WITHOUT ROWID") }
    if strict == true { options.append("STRICT") }
    if autoincrement {
      options.append(
        "AUTOINCREMENT" + (autoincrementSequence.map { " (sequence at \($0))" } ?? "")
      )
    }
    return options
  }
}

extension Schema.Index {
  /// `(a, b DESC, (lower(c)) COLLATE NOCASE)`.
  var columnsText: String { columnsText(shown: { $0 }) }

  /// `columnsText` with each name, expression and collation written through `shown` before it
  /// is quoted.
  func columnsText(shown: (String) -> String) -> String {
    "("
      + columns.map { column in
        var text =
          column.name.map { displayIdentifier(shown($0)) }
          ?? "(\(column.expression.map(shown) ?? "?"))"
        if column.collation.uppercased() != "BINARY" {
          text += " COLLATE \(shown(column.collation))"
        }
        if column.descending { text += " DESC" }
        return text
      }.joined(separator: ", ") + ")"
  }

  var originText: String {
    switch origin {
    case .created: "CREATE INDEX"
    case .unique: "UNIQUE constraint"
    case .primaryKey: "PRIMARY KEY"
    }
  }
}

extension Schema.ForeignKey {
  /// `(author_id) REFERENCES author (id) ON DELETE CASCADE`.
  var text: String { text(shown: { $0 }) }

  /// `text` with each name and action written through `shown` before it is quoted.
  func text(shown: (String) -> String) -> String {
    func name(_ name: String) -> String { displayIdentifier(shown(name)) }
    var text =
      "(\(columns.map(name).joined(separator: ", "))) REFERENCES "
      + "\(name(parentTable)) (\(parentColumns.map(name).joined(separator: ", ")))"
    if onDelete != "NO ACTION" { text += " ON DELETE \(shown(onDelete))" }
    if onUpdate != "NO ACTION" { text += " ON UPDATE \(shown(onUpdate))" }
    if match != "NONE" { text += " MATCH \(shown(match))" }
    return text
  }
}
