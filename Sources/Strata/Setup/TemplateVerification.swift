import Foundation

/// Whether a database may be replaced by a new template: only if its content is exactly what
/// strata's migrations put there. The 1970 timestamps of a template's history say where the
/// file came from, not what it holds now (a copy of a template that an app wrote rows into
/// keeps them), so the content itself is checked: the migrations the file records are built
/// again in scratch files, and every schema entry and every row of every table must be equal.
enum TemplateVerification {
  /// Throws `OutputFileError.notReplaceable` saying why, unless the database at `path` holds
  /// nothing at all or exactly what `migrations` (those of them it records) build. Read
  /// without locks or `-shm` (the caller refused a `-wal` with changes).
  static func verify(
    _ path: String,
    against migrations: MigrationSet,
    configuration: ConnectionConfiguration
  ) throws {
    func refuse(_ reason: String) -> OutputFileError {
      .notReplaceable(path: path, reason: reason)
    }
    let existing: Connection
    let applied: [AppliedMigration]
    do {
      existing = try configuration.open(path: path, mode: .immutable, foreignKeys: false)
      let entries = try existing.scalar("SELECT count(*) FROM sqlite_master")?.integerValue
      if entries == 0 { return }  // A database with nothing in it holds nothing to lose.
      guard try History.exists(existing) else {
        throw refuse(
          "is an SQLite database without strata's history table, so not a template strata "
            + "built (it may hold rows)"
        )
      }
      applied = try Migrator(migrations).applied(existing)
    } catch let error as SQLiteError {
      throw refuse("could not be read to check it is a template (\(error.message))")
    }
    var recorded: [Migration] = []
    for row in applied {
      let shown = "migration \(row.version) (\(row.name))"
      guard let migration = migrations.migration(version: row.version) else {
        throw refuse(
          "records \(shown), whose file is not in \(migrations.directory), so strata cannot "
            + "verify that it holds only what its migrations put there"
        )
      }
      guard migration.checksum == row.checksum else {
        throw refuse(
          "records \(shown) with a checksum that differs from \(migration.up.file) now (the "
            + "file was edited), so strata cannot verify that it holds only what its "
            + "migrations put there"
        )
      }
      recorded.append(migration)
    }
    let scratch = TemplateBuilder.ScratchFiles(beside: URL(fileURLWithPath: path))
    defer { scratch.remove() }
    // A file that records every migration is rebuilt from the whole set, Flyway's repeatable
    // migrations included (a subset has none: they run after the last versioned one).
    let rebuilt =
      recorded.count == migrations.migrations.count
      ? migrations : try MigrationSet(recorded, directory: migrations.directory)
    _ = try TemplateBuilder.writeTemplate(
      rebuilt,
      with: scratch,
      shownAs: path,
      configuration: configuration
    )
    let difference: String?
    do {
      let expected = try configuration.open(
        path: scratch.output,
        mode: .immutable,
        foreignKeys: false
      )
      difference = try firstDifference(existing, expected)
    } catch let error as SQLiteError {
      throw refuse("could not be compared with a fresh build of its migrations (\(error.message))")
    }
    if let difference {
      throw refuse(
        "is not exactly what its migrations build: \(difference) differs from a fresh build of "
          + "the \(recorded.count) migrations it records (it may hold rows strata did not put "
          + "there)"
      )
    }
  }

  /// The first schema entry, header value or table whose content differs between the two
  /// databases, as a message names it (`table student`); nil when they hold the same.
  static func firstDifference(_ actual: Connection, _ expected: Connection) throws -> String? {
    let schemaSQL = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    let actualSchema = try actual.rows(schemaSQL)
    let expectedSchema = try expected.rows(schemaSQL)
    if actualSchema != expectedSchema {
      let byName = { (rows: [[SQLValue]]) in
        Dictionary(rows.map { ("\($0[0]) \($0[1])", $0) }, uniquingKeysWith: { a, _ in a })
      }
      let (a, b) = (byName(actualSchema), byName(expectedSchema))
      let names = Set(a.keys).union(b.keys).sorted { lhs, rhs in
        lhs.hasPrefix("table ") != rhs.hasPrefix("table ") ? lhs.hasPrefix("table ") : lhs < rhs
      }
      return names.first { a[$0] != b[$0] } ?? "the schema"
    }
    for pragma in ["user_version", "application_id"] {
      let sql = "PRAGMA \(pragma)"
      if try actual.scalar(sql) != expected.scalar(sql) { return "its \(pragma)" }
    }
    for row in actualSchema where row[0] == .text("table") {
      guard case .text(let table) = row[1] else { continue }
      if try !sameRows(table, actual, expected) { return "table \(table)" }
    }
    return nil
  }

  /// Whether `table` holds the same rows (rowids included where it has them) in both.
  private static func sameRows(
    _ table: String,
    _ actual: Connection,
    _ expected: Connection
  ) throws -> Bool {
    let name = quoteIdentifier(table)
    let statements: (Statement, Statement)
    do {
      let sql = "SELECT rowid, * FROM \(name) ORDER BY rowid"
      statements = (try actual.prepare(sql), try expected.prepare(sql))
    } catch {
      // A WITHOUT ROWID table: ordered by every column, a total order on its content.
      let columns = try actual.prepare("SELECT * FROM \(name)").columnCount
      let order = (1...max(columns, 1)).map(String.init).joined(separator: ", ")
      let sql = "SELECT * FROM \(name) ORDER BY \(order)"
      statements = (try actual.prepare(sql), try expected.prepare(sql))
    }
    let (a, b) = statements
    while true {
      let (moreA, moreB) = (try a.step(), try b.step())
      guard moreA == moreB else { return false }
      guard moreA else { return true }
      guard a.columnCount == b.columnCount else { return false }
      for column in 0..<a.columnCount where a.value(at: column) != b.value(at: column) {
        return false
      }
    }
  }
}
