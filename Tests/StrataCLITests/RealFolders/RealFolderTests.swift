import Foundation
import Testing

/// Folders written here in the shape of real projects' migration folders (each README entry
/// in Tests/Fixtures/RealFolders names the project it follows and what it carries over):
/// strata must build the same schema and rows as the sqlite3 shell running what the folder's
/// own tool runs, roll back as far as the down parts go, and apply again.
@Suite("Folders shaped like real projects'")
struct RealFolderTests {
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/RealFolders")

  private func check(
    _ name: String,
    _ format: ReferenceFormat,
    options: [String] = []
  ) throws -> RealFolderCheck.Outcome {
    try RealFolderCheck(
      folder: Self.fixtures.appendingPathComponent(name),
      format: format,
      options: options
    ).run()
  }

  /// Whole `StatementBegin`…`StatementEnd` blocks of several statements and comments, a
  /// trigger, `DROP COLUMN` in a down part: all three roll back and apply again.
  @Test func gooseBlocksOfStatements() throws {
    #expect(try check("goose-links", .goose) == .init(applied: 3, rolledBack: 3))
  }

  /// A down file that drops a table the up file never made, leaving two behind: rolling back
  /// succeeds as golang-migrate's does, and applying again then fails on the leftover table
  /// in both, with strata's database left as it was.
  @Test func golangMigrateDownLeavesTablesBehind() throws {
    #expect(
      try check("golang-migrate-jobs", .golangMigrate)
        == .init(applied: 2, rolledBack: 2, reapplied: false)
    )
  }

  /// A licence header before `-- +migrate Up`, a multi-line string holding `;` and `--`, a
  /// double-quoted string. The fourth migration's down part drops the whole passwords table,
  /// and the first's drops an index the fourth already dropped: rollback stops at the first
  /// migration, and applying the fourth again fails for want of that index, in strata as in
  /// sqlite3, each time leaving strata's database as it was.
  @Test func sqlMigrateRollbackStopsWhereTheDownPartFails() throws {
    #expect(
      try check("sql-migrate-rooms", .sqlMigrate)
        == .init(applied: 4, rolledBack: 3, reapplied: false)
    )
  }

  /// Whole files with views, a CTE, a trigger, a STRICT table; sqlx's `.sql` files have no
  /// down part, so nothing rolls back.
  @Test func sqlxUpOnlyFiles() throws {
    #expect(try check("sqlx-votes", .sqlx) == .init(applied: 2, rolledBack: 0))
  }

  /// SQLiteMigrationManager's names (`1.sql`, `3_add-occupation.sql`, a name with spaces),
  /// a WITHOUT ROWID table; bundles have no down parts.
  @Test func bundleNamesAsSQLiteMigrationManagerReadsThem() throws {
    #expect(try check("bundle-contacts", .bundle) == .init(applied: 4, rolledBack: 0))
  }

  /// A Python data migration among the SQL files (dbmate skips it, and `--exclude '*.py'`
  /// tells strata so), and an up part of comments only whose down part re-adds a column that
  /// is still there: rollback stops at it in both, as dbmate's own rollback does.
  @Test func dbmateCommentOnlyUpAndPythonFile() throws {
    #expect(
      try check("dbmate-pipelines", .dbmate, options: ["--exclude", "*.py"])
        == .init(applied: 8, rolledBack: 3)
    )
  }

  /// One folder per migration beside a `.keep` file, a data migration into key/value rows and
  /// back, `PRAGMA foreign_keys` around a table rebuild inside the migration's transaction.
  @Test func dieselFolders() throws {
    #expect(try check("diesel-portfolio", .diesel) == .init(applied: 3, rolledBack: 3))
  }

  /// Flyway's `V<version>__<description>.sql` files, with no undo files: nothing rolls back.
  @Test func flywayVersionedFiles() throws {
    #expect(try check("flyway-people", .flyway) == .init(applied: 3, rolledBack: 0))
  }
}
