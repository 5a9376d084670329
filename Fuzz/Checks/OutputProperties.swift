import Foundation
import Strata
import StrataArguments
import StrataCLI

/// The output rule's promises (`SQLOutput`: exact to a file or a pipe, escaped on a terminal),
/// checked on a schema whose names and values come from the input (NUL bytes separate a
/// table's name, a column's name, a default value and an index's name; any other byte goes in):
/// - written to a file, the migration `strata diff` prints is the text made and checked: read
///   back as a migration file and applied after the migration it was made against, it gives
///   the desired tables, columns, default values and indexes;
/// - written to a file, `inspect --format sql` is SQLite's text: run in an empty database it
///   recreates the same schema;
/// - on a terminal, neither holds a control character other than a line break or a tab (no
///   other C0, no DEL, C1, line separator or bidirectional control), and it is UTF-8.
enum OutputProperties {
  static let current = "CREATE TABLE t (id INTEGER PRIMARY KEY);\n"
  /// `current`'s schema, read once.
  static let currentSchema = try? DesiredSchema(sql: current, file: "current.sql").schema

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    // A migration file reads a CRLF as LF, so `diff` refuses one inside a name or a value
    // (SQLOutputFidelityTests): keep only lone CRs.
    var bytes: [UInt8] = []
    for (index, byte) in input.enumerated()
    where !(byte == 0x0D && index + 1 < input.count && input[index + 1] == 0x0A) {
      bytes.append(byte)
    }
    let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
      .map { String(decoding: $0.prefix(200), as: UTF8.self) }
    let table = parts[0]
    let column = parts.count > 1 ? parts[1] : "c"
    let value = parts.count > 2 ? parts[2] : ""
    var desired = """
      CREATE TABLE t (id INTEGER PRIMARY KEY, \(quoted(column)) TEXT DEFAULT \(literal(value)));
      CREATE TABLE \(quoted(table)) (id INTEGER PRIMARY KEY, v TEXT DEFAULT \(literal(value)));

      """
    if parts.count > 3 {
      desired += "CREATE INDEX \(quoted(parts[3])) ON \(quoted(table)) (v);\n"
    }
    // Names SQLite or strata refuse (a duplicate, one of strata's tables): not this target's.
    guard let schema = try? DesiredSchema(sql: desired, file: "desired.sql"),
      let expected = try? Connection.inMemory(),
      (try? expected.execute(desired)) != nil
    else { return }
    try checkDiff(to: schema, expected: expected)
    try checkDump(of: expected)
  }

  /// `diff`'s migration to a file, applied after the current schema's migration.
  static func checkDiff(to desired: DesiredSchema, expected: Connection) throws(PropertyViolation) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-fuzz-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let previous = folder.appendingPathComponent("0001_t.sql")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(("-- migrate:up\n" + current).utf8).write(to: previous)
    } catch {
      fatalError("cannot write \(previous.path): \(error)")
    }
    // A migration that fails diff's own check (a value holding a line that reads as a
    // `-- migrate:down` marker) is refused, and nothing is printed: no output to check.
    guard let currentSchema,
      let migration = try? SchemaDiff.migration(from: currentSchema, to: desired),
      let files = try? MigrationSet.newMigrationTexts(
        in: folder,
        name: "schema_change",
        content: migration
      ).files
    else { return }
    let printed = SQLOutput.migrationFiles(files)
    let saved = folder.appendingPathComponent("0002_schema_change.sql")
    do {
      try Data(SQLOutput.rendered(printed, to: .fileOrPipe).utf8).write(to: saved)
    } catch {
      fatalError("cannot write \(saved.path): \(error)")
    }
    try require(
      Array(SQLOutput.rendered(printed, to: .fileOrPipe).utf8) == Array(printed.utf8),
      "diff's SQL to a file is not the migration made: \(printed.debugDescription)"
    )
    try checkTerminal(printed, "diff")
    let applied: Connection
    do {
      applied = try Connection.inMemory()
      try Migrator(MigrationSet(directory: folder)).migrate(applied)
    } catch {
      throw PropertyViolation(
        "the migration diff printed does not apply: \(error)\n\(printed.debugDescription)"
      )
    }
    try require(
      shape(of: applied) == shape(of: expected),
      "the migration diff printed gives \(shape(of: applied)), not \(shape(of: expected)):\n"
        + printed.debugDescription
    )
  }

  /// `inspect --format sql` to a file, run in an empty database.
  static func checkDump(of database: Connection) throws(PropertyViolation) {
    let sql: String
    do {
      sql = try SchemaInspector(database).inspect().rendered(as: .sql)
    } catch {
      throw PropertyViolation("inspect could not dump a schema SQLite accepted: \(error)")
    }
    let written = SQLOutput.rendered(sql, to: .fileOrPipe)
    try require(
      Array(written.utf8) == Array(sql.utf8),
      "inspect's SQL to a file is not the dump: \(sql.debugDescription)"
    )
    try checkTerminal(sql, "inspect --format sql")
    let copy: Connection
    do {
      copy = try Connection.inMemory()
      try copy.execute(written)
    } catch {
      throw PropertyViolation("the dump does not run: \(error)\n\(sql.debugDescription)")
    }
    let query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    try require(
      (try? copy.rows(query)) == (try? database.rows(query)),
      "the dump recreates another schema: \(sql.debugDescription)"
    )
  }

  /// `text` as a terminal gets it: no control but line breaks and tabs, UTF-8.
  static func checkTerminal(_ text: String, _ what: String) throws(PropertyViolation) {
    let shown = SQLOutput.rendered(text, to: .terminal)
    let bytes = Array(shown.utf8)
    try require(
      String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes),
      "\(what) on a terminal is not UTF-8"
    )
    let raw = shown.unicodeScalars.filter { isHiddenControl($0) && $0 != "\n" && $0 != "\t" }
    try require(
      raw.isEmpty,
      "\(what) on a terminal holds controls \(raw.map(\.value)): \(shown.debugDescription)"
    )
  }

  /// Tables with their columns and default values, and indexes, by name.
  static func shape(of database: Connection) -> [[SQLValue]] {
    let columns = """
      SELECT m.name, p.name, p.type, p.dflt_value FROM sqlite_master AS m,
        pragma_table_info(m.name) AS p
      WHERE m.type = 'table' AND m.name <> 'strata_migrations' ORDER BY 1, 2
      """
    let indexes = """
      SELECT name, tbl_name, '', '' FROM sqlite_master
      WHERE type = 'index' AND tbl_name <> 'strata_migrations' ORDER BY 1
      """
    return ((try? database.rows(columns)) ?? [[.text("unreadable")]])
      + ((try? database.rows(indexes)) ?? [[.text("unreadable")]])
  }

  static func quoted(_ name: String) -> String { enclosed(name, in: "\"") }

  static func literal(_ text: String) -> String { enclosed(text, in: "'") }

  /// `text` between `quote`s, each `quote` in it doubled (scalar by scalar: a combining mark
  /// after a quote makes one Character of the two).
  static func enclosed(_ text: String, in quote: Unicode.Scalar) -> String {
    var scalars = String.UnicodeScalarView([quote])
    for scalar in text.unicodeScalars {
      scalars.append(scalar)
      if scalar == quote { scalars.append(quote) }
    }
    scalars.append(quote)
    return String(scalars)
  }
}
