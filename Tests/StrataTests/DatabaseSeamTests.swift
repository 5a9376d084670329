import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An engine that is not SQLite's `Connection`: it offers the seam (SQLDatabase.swift) and
/// nothing more, forwarding each operation to a real connection (no mock: real SQLite answers)
/// and recording which operations the library used. A job that needed a `Connection` power
/// could not reach it through this type.
final class SeamOnlyDatabase: SQLDatabase {
  private let inner: Connection
  /// The operations used, by name.
  private(set) var used: Set<String> = []

  init(_ inner: Connection) {
    self.inner = inner
  }

  func record(_ operation: String) {
    used.insert(operation)
  }

  var path: String { inner.path }
  var sqliteVersionNumber: Int { inner.sqliteVersionNumber }
  var sqliteVersion: String { inner.sqliteVersion }

  func execute(_ sql: String) throws {
    record("execute")
    try inner.execute(sql)
  }

  func executeScript(
    _ script: String,
    firstLine: Int,
    willRun: ((ScriptStatement) throws -> Void)?
  ) throws -> [ScriptStatement] {
    record("executeScript")
    return try inner.executeScript(script, firstLine: firstLine, willRun: willRun)
  }

  func prepare(_ sql: String) throws -> SeamOnlyStatement {
    record("prepare")
    return SeamOnlyStatement(try inner.prepare(sql), database: self)
  }

  func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
    record("rows")
    return try inner.rows(sql, arguments)
  }

  func scalar(_ sql: String, _ arguments: [SQLValue]) throws -> SQLValue? {
    record("scalar")
    return try inner.scalar(sql, arguments)
  }

  func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
    record("run")
    return try inner.run(sql, arguments)
  }

  func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
    record("transaction")
    return try inner.transaction(kind, body)
  }

  func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
    record("savepoint")
    return try inner.savepoint(name, body)
  }

  var changes: Int { inner.changes }
  var isAutocommit: Bool { inner.isAutocommit }
  var maximumVariableNumber: Int { inner.maximumVariableNumber }

  func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
    try inner.withoutWaitingForLocks(body)
  }
}

/// `SeamOnlyDatabase`'s statement: forwards to a real `Statement`, records the bulk path.
final class SeamOnlyStatement: SQLStatement {
  private let inner: Statement
  private let database: SeamOnlyDatabase

  init(_ inner: Statement, database: SeamOnlyDatabase) {
    self.inner = inner
    self.database = database
  }

  var sql: String { inner.sql }
  var columnCount: Int { inner.columnCount }
  func columnName(at index: Int) -> String { inner.columnName(at: index) }
  func bind(_ values: [SQLValue]) throws { try inner.bind(values) }
  func bind(_ value: SQLValue, at index: Int) throws { try inner.bind(value, at: index) }
  func step() throws -> Bool { try inner.step() }
  func reset() { inner.reset() }
  func clearBindings() { inner.clearBindings() }
  func value(at index: Int) -> SQLValue { inner.value(at: index) }
  func int64(at index: Int) -> Int64 { inner.int64(at: index) }
  func string(at index: Int) -> String? { inner.string(at: index) }
  func double(at index: Int) -> Double { inner.double(at: index) }
  func isNull(at index: Int) -> Bool { inner.isNull(at: index) }

  func bindTextNoCopy(_ start: UnsafeRawPointer, count: Int, at index: Int32) throws {
    database.record("bindTextNoCopy")
    try inner.bindTextNoCopy(start, count: count, at: index)
  }

  func bindBlobCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
    try inner.bindBlobCopy(bytes, at: index)
  }

  func bindInt64(_ value: Int64, at index: Int32) throws {
    database.record("bindInt64")
    try inner.bindInt64(value, at: index)
  }

  func bindDouble(_ value: Double, at index: Int32) throws {
    try inner.bindDouble(value, at: index)
  }

  func bindNull(at index: Int32) throws {
    try inner.bindNull(at: index)
  }

  func runBatch(rowsBeforeFailure: inout Int) throws -> Int {
    database.record("runBatch")
    return try inner.runBatch(rowsBeforeFailure: &rowsBeforeFailure)
  }
}

/// The seam to a database is enough for the three jobs: a real migration folder, a real seed
/// and an inspection run through the library's own entry points on an engine that offers only
/// the seam, and give what they give on a `Connection`.
@Suite struct DatabaseSeamTests {
  static let migrations = [
    "0001_create_country.sql": """
    -- migrate:up
    CREATE TABLE country (
      code TEXT PRIMARY KEY,
      name TEXT NOT NULL
    );
    -- migrate:down
    DROP TABLE country;
    """,
    "0002_create_city.sql": """
    -- migrate:up
    CREATE TABLE city (
      id      INTEGER PRIMARY KEY,
      name    TEXT NOT NULL,
      country TEXT NOT NULL REFERENCES country (code)
    );
    CREATE INDEX city_country ON city (country);
    -- migrate:down
    DROP TABLE city;
    """,
  ]

  /// A folder with the migrations above and a database file in it.
  func project() throws -> (folder: TemporaryDirectory, set: MigrationSet, connection: Connection) {
    let folder = try TemporaryDirectory()
    for (name, text) in Self.migrations {
      try folder.write("migrations/\(name)", text)
    }
    let set = try MigrationSet(directory: folder.path("migrations"))
    let connection = try Connection(path: folder.path("app.sqlite3").path)
    return (folder, set, connection)
  }

  @Test func migrateSeedAndInspectRunThroughTheSeamAlone() throws {
    let (folder, set, connection) = try project()
    let seam = SeamOnlyDatabase(connection)

    let migrated = try Migrator(set).migrate(seam, options: MigrateOptions(), willRun: nil)
    #expect(migrated.toVersion == MigrationVersion(integer: 2))
    #expect(migrated.steps.count == 2)
    #expect(try Migrator(set).plan(seam).migrations(in: .pending).isEmpty)

    try folder.write("seeds/country.csv", "code,name\nFR,France\nIT,Italia\n")
    try folder.write("seeds/city.csv", "id,name,country\n1,Paris,FR\n2,Lyon,FR\n3,Roma,IT\n")
    let seeded = try Seeder(database: seam).seed(
      directory: folder.path("seeds"),
      options: SeedOptions(mode: .upsert)
    )
    #expect(seeded.inserted == 5)
    #expect(try connection.scalar("SELECT count(*) FROM city WHERE country = 'FR'") == .integer(2))

    let throughSeam = try SchemaInspector(database: seam).inspect(migrations: set)
    let throughConnection = try SchemaInspector(connection).inspect(migrations: set)
    #expect(throughSeam == throughConnection)
    #expect(throughSeam.tables.map(\.name).sorted() == ["city", "country"])

    let rolledBack = try Migrator(set).rollback(
      seam,
      .steps(1),
      dryRun: false,
      allowChanged: false,
      willRun: nil
    )
    #expect(rolledBack.toVersion == MigrationVersion(integer: 1))
    #expect(
      try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'city'") == .integer(0)
    )

    // The history, the parts, the transaction, the foreign-key check and the seeder's bulk
    // path all went through the seam.
    for operation in [
      "executeScript", "transaction", "prepare", "rows", "scalar", "bindTextNoCopy", "bindInt64",
      "runBatch",
    ] {
      #expect(seam.used.contains(operation), "\(operation) not used")
    }
  }

  @Test func aMigrationThatLeavesAnOrphanFailsThroughTheSeam() throws {
    let (folder, _, connection) = try project()
    try folder.write(
      "migrations/0003_orphan.sql",
      """
      -- migrate:up
      INSERT INTO city (id, name, country) VALUES (1, 'Nowhere', 'XX');
      -- migrate:down
      DELETE FROM city WHERE id = 1;
      """
    )
    let set = try MigrationSet(directory: folder.path("migrations"))
    let seam = SeamOnlyDatabase(connection)
    var caught: MigrationError?
    do {
      _ = try Migrator(set).migrate(seam, options: MigrateOptions(), willRun: nil)
    } catch let error as MigrationError {
      caught = error
    }
    guard
      case .foreignKeyViolation(let version, _, let violations, _, _)? = caught?.underlyingFailure
    else {
      Issue.record("expected a foreign key violation, got \(String(describing: caught))")
      return
    }
    #expect(version == MigrationVersion(integer: 3))
    #expect(violations.count == 1)
    #expect(try History.currentVersion(seam) == MigrationVersion(integer: 2))
  }

  /// The files of the three jobs that still name `Connection`, each for a reason: a public
  /// entry point taking one (the protocol is `package`), or an SQLite-only power (the fence,
  /// the backup API, `locking_mode`, a scratch in-memory database, the library's version).
  static let namingConnection: Set<String> = [
    // Public entry points, forwarding to the seam; the backup and the dry run's trial.
    "Migrator.swift",
    // The authorizer fence around a part's statements.
    "MigrationPartRunner.swift",
    // `locking_mode = EXCLUSIVE` across a run.
    "MigrationRunLock.swift",
    // A dry run's trial on the rows: behind the fence, its cache kept from spilling.
    "Migrator+DryRun.swift",
    // Adoption's public entry points, and the adoption itself, which rewrites the history
    // table in one transaction (`HistoryAdoption`: not yet through the seam).
    "Migrator+Adopt.swift",
    "HistoryAdoption.swift",
    // Keeps SQLite's lock from one migration to the next (`MigrationRunLock`, locking_mode).
    "Migrator+Running.swift",
    // The SPI entry point that reads the history while the folder is read.
    "RecordedHistory.swift",
    // Builds a new database file and opens it.
    "Migrator+NewDatabase.swift",
    "NewDatabaseBuild.swift",
    // Opens each database of a fleet.
    "MigrationFleet.swift",
    // The status cache's key names the linked SQLite.
    "DatabaseHistoryCache.swift",
    // The public entry point, and the fence around a seed file's triggers.
    "Seeder.swift",
    // The public entry point.
    "SchemaInspector.swift",
    // Public entry points taking a connection.
    "DriftCheck.swift",
    "SchemaFile.swift",
    // Replays migrations on a scratch in-memory SQLite database.
    "MigrationReplay.swift",
    "ProducedSchema.swift",
  ]

  @Test func theJobsNameConnectionOnlyWhereListed() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/Strata")
    // As `grep -w`: `Connection.open` names it (Unicode's word rules would read one word).
    let word = try Regex(#"\bConnection\b"#).wordBoundaryKind(.simple)
    var naming: Set<String> = []
    var present: Set<String> = []
    for folder in ["Migrations", "Seeding", "Inspection"] {
      let root = sources.appendingPathComponent(folder)
      let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
      for case let file as String in enumerator where file.hasSuffix(".swift") {
        let name = URL(fileURLWithPath: file).lastPathComponent
        present.insert(name)
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        if text.contains(word) { naming.insert(name) }
      }
    }
    // A file that starts naming `Connection` must be listed, with its reason; a listed file
    // that no longer does must leave the list. (A listed file moved out of these folders is
    // no longer checked here.)
    #expect(naming.subtracting(Self.namingConnection).sorted() == [])
    #expect(Self.namingConnection.intersection(present).subtracting(naming).sorted() == [])
  }
}
