import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Changes that keep a column but can change the values it holds: a column that becomes (or
/// stops being) generated, a type whose affinity converts the values stored (datatype3.html
/// §3.1). Those that lose values are destructive; the others keep every value.
@Suite struct DiffValueLossTests {
  static let generatedCurrent = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT, total INT,
      g INT GENERATED ALWAYS AS (a*10) STORED);
    """
  static let generatedDesired = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT,
      total INT GENERATED ALWAYS AS (a+b) VIRTUAL, g INT);
    """

  /// A plain column that becomes generated loses its stored values: refused unless allowed.
  @Test func aColumnThatBecomesGeneratedIsDestructive() throws {
    #expect {
      try DiffFixtures.migration(from: Self.generatedCurrent, to: Self.generatedDesired)
    } throws: { error in
      guard case .destructive(let changes, _) = error as? DiffError else { return false }
      return changes == ["makes t.total generated (its stored values give way to computed ones)"]
    }
  }

  /// A generated column that becomes plain keeps the values it computed, and the loss of the
  /// column that becomes generated is marked in both parts.
  @Test func aGeneratedColumnThatBecomesPlainKeepsItsValues() throws {
    let migration = try DiffFixtures.migration(
      from: Self.generatedCurrent,
      to: Self.generatedDesired,
      options: SchemaDiffOptions(allowsDestructive: true)
    )
    // Marked before the new table, with the directive for what `strata lint` sees there (the
    // table rebuilt without the plain column total).
    #expect(
      migration.up.contains(
        "-- Destructive: makes t.total generated (its stored values give way to computed ones).\n"
          + "-- strata:allow drop-column\nCREATE TABLE \"new_t\""
      )
    )
    #expect(migration.up.contains("INSERT INTO \"new_t\" (\"id\", \"a\", \"b\", \"g\")"))
    #expect(
      migration.down?.contains("-- Destructive: makes t.g generated (its stored values") == true
    )
    let database = try DiffFixtures.database(
      Self.generatedCurrent,
      rows: "INSERT INTO t (id, a, b, total) VALUES (1, 1, 2, 999), (2, 3, 4, -5);"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: Self.generatedDesired) == [])
    #expect(
      try DiffFixtures.rows(database, "SELECT id, a, b, total, g FROM t ORDER BY id") == [
        ["1", "1", "2", "3", "10"], ["2", "3", "4", "7", "30"],
      ]
    )
    try DiffFixtures.rollBack(migration, in: database)
    #expect(try DiffFixtures.drift(database, from: Self.generatedCurrent) == [])
  }

  /// The check that a changed table keeps the values of the columns it keeps covers a
  /// generated column that becomes plain: a rebuild that leaves it out (NULL) fails it.
  @Test func theCheckCatchesAGeneratedColumnLeftEmpty() throws {
    let current = try DiffFixtures.schema(Self.generatedCurrent)
    let desired = try DiffFixtures.schema(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT, total INT, g INT);"
    )
    var plan = try SchemaChangePlanner(
      current: current,
      desired: desired,
      options: SchemaDiffOptions(),
      sqliteVersion: Int32(Connection.libraryVersionNumber),
      desiredFile: "desired.sql",
      desiredLine: { _ in nil }
    ).plan()
    let copy = try #require(plan.statements.firstIndex { $0.sql.hasPrefix("INSERT INTO") })
    #expect(plan.statements[copy].sql.contains("\"g\""))
    // The copy as it was before generated columns were copied: without g.
    plan.statements[copy].sql = plan.statements[copy].sql.replacingOccurrences(
      of: ", \"g\"",
      with: ""
    )
    let outcome = try GeneratedMigrationCheck(
      current: current,
      desired: desired,
      configuration: .none
    ).run(up: plan, down: nil)
    guard case .failed(let reason, let part, _) = outcome else {
      Issue.record("the check passed a rebuild that empties t.g")
      return
    }
    #expect(part == .up)
    #expect(reason.contains("it does not keep the rows of t"))
  }

  /// Type changes whose affinity converts values already stored: each refused, with what it
  /// loses, and shown losing a value in a real database.
  @Test(arguments: [
    ("INTEGER", "REAL", "9007199254740993", "an integer beyond 2^53 becomes another number"),
    ("NUMERIC", "REAL", "9007199254740993", "an integer beyond 2^53 becomes another number"),
    ("REAL", "TEXT", "0.1 + 0.2", "a REAL becomes text of 15 significant digits"),
    ("INTEGER", "TEXT", "0.1 + 0.2", "a REAL becomes text of 15 significant digits"),
    ("NUMERIC", "TEXT", "0.1 + 0.2", "a REAL becomes text of 15 significant digits"),
    ("BLOB", "TEXT", "0.1 + 0.2", "a REAL becomes text of 15 significant digits"),
    ("TEXT", "INTEGER", "'007'", "text that reads as a number becomes a number"),
  ])
  func aTypeThatConvertsValuesIsDestructive(
    from old: String,
    to new: String,
    value: String,
    loss: String
  ) throws {
    let current = "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(old));"
    let desired = "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(new));"
    #expect {
      try DiffFixtures.migration(from: current, to: desired)
    } throws: { error in
      guard case .destructive(let changes, _) = error as? DiffError else { return false }
      return changes == ["narrows t.v (\(old) to \(new): \(loss))"]
    }
    let migration = try DiffFixtures.migration(
      from: current,
      to: desired,
      options: SchemaDiffOptions(allowsDestructive: true)
    )
    #expect(migration.up.contains("-- Destructive: narrows t.v (\(old) to \(new): \(loss)).\n"))
    let database = try DiffFixtures.database(current, rows: "INSERT INTO t VALUES (1, \(value));")
    let before = try database.rows("SELECT v FROM t")
    try DiffFixtures.apply(migration, to: database)
    #expect(try database.rows("SELECT v FROM t") != before)
  }

  /// A STRICT INTEGER column that becomes REAL rounds a large integer.
  @Test func aStrictIntegerThatBecomesRealIsDestructive() throws {
    #expect {
      try DiffFixtures.migration(
        from: "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER) STRICT;",
        to: "CREATE TABLE t (id INTEGER PRIMARY KEY, v REAL) STRICT;"
      )
    } throws: { error in
      guard case .destructive(let changes, _) = error as? DiffError else { return false }
      return changes == [
        "narrows t.v (INTEGER to STRICT REAL: an integer beyond 2^53 becomes another number)"
      ]
    }
  }

  /// Type changes that keep every value (as SQLite compares them): written without
  /// `allowsDestructive`, and the values of a real database survive them. The down part of
  /// one that is lossy the other way is marked.
  @Test(arguments: [
    ("INTEGER", "NUMERIC", false), ("NUMERIC", "INTEGER", false), ("REAL", "NUMERIC", true),
    ("REAL", "INTEGER", true), ("TEXT", "BLOB", true), ("INTEGER", "BLOB", true),
    ("REAL", "BLOB", true), ("NUMERIC", "BLOB", true),
  ])
  func aTypeThatKeepsValuesIsSafe(from old: String, to new: String, lossyBack: Bool) throws {
    let current = "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(old));"
    let desired = "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(new));"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(migration.destructiveChanges == [])
    #expect(!migration.up.contains("Destructive"))
    #expect(migration.down?.contains("-- Destructive: narrows t.v (\(new) to \(old)") == lossyBack)
    let database = try DiffFixtures.database(
      current,
      rows: """
        INSERT INTO t VALUES (1, 9007199254740993), (2, 0.1 + 0.2), (3, 3.0), (4, 1e300),
          (5, 'abc'), (6, x'01'), (7, NULL), (8, -1.5);
        """
    )
    let before = try database.rows("SELECT id, v FROM t ORDER BY id")
    try DiffFixtures.apply(migration, to: database)
    let after = try database.rows("SELECT id, v FROM t ORDER BY id")
    for (was, now) in zip(before, after) {
      // As SQLite compares them: 3.0 that became 3 is the same value.
      let same = try database.scalar("SELECT ? IS ?", [was[1], now[1]])
      #expect(same == .integer(1), "row \(was[0]): \(was[1]) became \(now[1])")
    }
  }

  /// What `strata lint` sees in a rebuild (the tables' plain columns compared by name: a
  /// column dropped or renamed is gone, a renamed NOT NULL one is new) carries its directive,
  /// so the generated migration lints clean; the drop is marked destructive.
  @Test func aRebuildIsMarkedForWhatLintSeesInIt() throws {
    let current = """
      CREATE TABLE t (id INTEGER PRIMARY KEY, s, old TEXT, gone TEXT, UNIQUE (gone));
      """
    let migration = try DiffFixtures.migration(
      from: current,
      to: "CREATE TABLE t (id INTEGER PRIMARY KEY, s BLOB, new TEXT NOT NULL);",
      options: SchemaDiffOptions(
        renames: [SchemaRename(table: "t", column: "old", to: "new")],
        allowsDestructive: true
      )
    )
    #expect(
      migration.up.contains(
        "-- Destructive: drops column t.gone and its values.\n"
          + "-- Renames column t.old to new: its values are copied.\n"
          + "-- strata:allow drop-column, not-null-without-default\nCREATE TABLE \"new_t\""
      ),
      "\(migration.up)"
    )
    let fixture = try MigrationFixture([
      "0001_init.sql": "-- migrate:up\n\(current)\n-- migrate:down\nDROP TABLE t;\n",
      "0002_change.sql": "-- migrate:up\n\(migration.up)\n-- migrate:down\n\(migration.down ?? "")",
    ])
    let migrations = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations"
    )
    #expect(try MigrationLinter(migrations).lint(nil).findings.map(\.description) == [])
  }
}
