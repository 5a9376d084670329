import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Migrations, a template built from them, and a database path, in a fresh folder.
struct SetupFixture {
  let dir: TemporaryDirectory
  var migrations: URL { dir.path("migrations") }
  var template: URL { dir.path("template.sqlite3") }
  var database: URL { dir.path("Documents/data.sqlite3") }

  static let files = [
    "0001_a.sql":
      "-- migrate:up\nCREATE TABLE IF NOT EXISTS a (x);\n-- migrate:down\nDROP TABLE a;",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (id INTEGER PRIMARY KEY, a_x);\n",
    "0003_c.sql": "-- migrate:up\nCREATE INDEX b_a ON b (a_x);\n",
  ]

  init(buildTemplate: Bool = true) throws {
    dir = try TemporaryDirectory()
    for (name, text) in Self.files { try dir.write("migrations/\(name)", text) }
    if buildTemplate {
      try TemplateBuilder.build(try MigrationSet(directory: migrations), to: template)
    }
  }

  func setup(template: URL? = nil) -> DatabaseSetup {
    DatabaseSetup(database: database, migrations: migrations, template: template)
  }

  func schema(_ url: URL) throws -> [[SQLValue]] {
    try Connection(path: url.path, mode: .readOnly).rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    )
  }
}

@Suite struct DatabaseSetupTests {
  @Test func freshDatabaseFromTheTemplateAppliesOnlyNewerMigrations() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("migrations/0004_d.sql", "CREATE TABLE d (x);")
    let report = try fixture.setup(template: fixture.template).run()
    #expect(report.created && report.templateCopied)
    #expect(report.fromVersion == 3)
    #expect(report.appliedVersions == [4])
    #expect(report.version == 4)
    let history = try Connection(path: fixture.database.path).rows(
      "SELECT applied_at FROM strata_migrations"
    )
    #expect(history.allSatisfy { $0[0] != .text(TemplateBuilder.templateTimestamp) })
  }

  @Test func secondRunChangesNothingAndDoesNotWriteTheFile() throws {
    let fixture = try SetupFixture()
    try fixture.setup(template: fixture.template).run()
    let before = try Data(contentsOf: fixture.database)
    let modified = try FileManager.default.attributesOfItem(atPath: fixture.database.path)[
      .modificationDate
    ]
    usleep(20_000)
    let again = try fixture.setup(template: fixture.template).run()
    #expect(!again.changedAnything)
    #expect(try Data(contentsOf: fixture.database) == before)
    let after = try FileManager.default.attributesOfItem(atPath: fixture.database.path)[
      .modificationDate
    ]
    #expect(after as? Date == modified as? Date)
  }

  @Test func templateAndMigratingFromEmptyGiveTheSameSchema() throws {
    let fixture = try SetupFixture()
    try fixture.setup(template: fixture.template).run()
    let empty = fixture.dir.path("empty.sqlite3")
    try DatabaseSetup(database: empty, migrations: fixture.migrations).run()
    #expect(try fixture.schema(fixture.database) == fixture.schema(empty))
  }

  /// File-level settings a migration makes (WAL) survive the template, as they would a
  /// migration from empty.
  @Test func templateKeepsTheJournalModeAMigrationSets() throws {
    let fixture = try SetupFixture(buildTemplate: false)
    try fixture.dir.write(
      "migrations/0004_wal.sql",
      "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n"
    )
    try TemplateBuilder.build(try MigrationSet(directory: fixture.migrations), to: fixture.template)
    try fixture.setup(template: fixture.template).run()
    let empty = fixture.dir.path("empty.sqlite3")
    try DatabaseSetup(database: empty, migrations: fixture.migrations).run()
    for pragma in ["journal_mode", "page_size", "auto_vacuum", "user_version", "encoding"] {
      let fromTemplate = try Connection(path: fixture.database.path).scalar("PRAGMA \(pragma)")
      let fromEmpty = try Connection(path: empty.path).scalar("PRAGMA \(pragma)")
      #expect(fromTemplate == fromEmpty, "PRAGMA \(pragma)")
    }
    #expect(
      try Connection(path: fixture.database.path).scalar("PRAGMA journal_mode") == .text("wal")
    )
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.url.path)
      .filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }

  /// A template shipped read-only (in a bundle, a package) still gives a writable database.
  @Test func readOnlyTemplateGivesAWritableDatabase() throws {
    let fixture = try SetupFixture()
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o444],
      ofItemAtPath: fixture.template.path
    )
    try fixture.dir.write("migrations/0004_d.sql", "CREATE TABLE d (x);")
    let report = try fixture.setup(template: fixture.template).run()
    #expect(report.templateCopied && report.appliedVersions == [4])
    let mode = try FileManager.default.attributesOfItem(atPath: fixture.database.path)[
      .posixPermissions
    ]
    #expect((mode as? NSNumber)?.intValue == 0o644)
  }

  @Test func sameMigrationsGiveAByteIdenticalTemplate() throws {
    let fixture = try SetupFixture()
    let second = fixture.dir.path("second.sqlite3")
    try TemplateBuilder.build(try MigrationSet(directory: fixture.migrations), to: second)
    #expect(try Data(contentsOf: second) == Data(contentsOf: fixture.template))
  }

  @Test func noTemplateCreatesAnEmptyDatabaseAndMigrates() throws {
    let fixture = try SetupFixture(buildTemplate: false)
    let report = try fixture.setup().run()
    #expect(report.created && !report.templateCopied)
    #expect(report.appliedVersions == [1, 2, 3])
  }

  @Test func missingDocumentsFolderIsCreated() throws {
    let fixture = try SetupFixture()
    #expect(!FileManager.default.fileExists(atPath: fixture.dir.path("Documents").path))
    try fixture.setup(template: fixture.template).run()
    #expect(databaseFileKind(at: fixture.database.path) == .sqlite)
  }

  /// The FMDB article's bug: the template copied onto the documents directory's path.
  @Test func databasePathThatIsADirectoryIsAnErrorAndNothingIsCreatedInside() throws {
    let fixture = try SetupFixture()
    let folder = fixture.dir.path("Documents")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let setup = DatabaseSetup(
      database: folder,
      migrations: fixture.migrations,
      template: fixture.template
    )
    #expect(throws: DatabaseOpenError.isDirectory(path: folder.path)) { try setup.run() }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test(arguments: ["not sqlite at all", ""])
  func badTemplateCreatesNoDatabase(content: String) throws {
    let fixture = try SetupFixture()
    let bad = try fixture.dir.write("bad.sqlite3", content)
    #expect(throws: SetupError.self) { try fixture.setup(template: bad).run() }
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }

  @Test func truncatedTemplateCreatesNoDatabase() throws {
    let fixture = try SetupFixture()
    // Give the template some pages, then cut it short.
    let big = fixture.dir.path("big.sqlite3")
    let db = try Connection(path: big.path)
    try db.execute(
      """
      CREATE TABLE t (x);
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 2000)
      INSERT INTO t SELECT hex(randomblob(64)) FROM c;
      """
    )
    let bytes = try Data(contentsOf: big)
    let truncated = fixture.dir.path("truncated.sqlite3")
    try bytes.prefix(bytes.count / 3).write(to: truncated)
    let setup = DatabaseSetup(
      database: fixture.database,
      migrations: try fixture.dir.write("none/.keep", "").deletingLastPathComponent(),
      template: truncated
    )
    let error = #expect(throws: SetupError.self) { try setup.run() }
    #expect(error?.message.contains("no database was created") == true)
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }

  @Test func existingNonSQLiteFileIsLeftUntouched() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("Documents/data.sqlite3", "precious notes")
    #expect(throws: DatabaseOpenError.notADatabase(path: fixture.database.path)) {
      try fixture.setup(template: fixture.template).run()
    }
    #expect(
      try String(contentsOf: fixture.database, encoding: .utf8) == "precious notes"
    )
  }

  @Test func failureBetweenCopyAndLinkLeavesNoDatabase() throws {
    let fixture = try SetupFixture()
    try FileManager.default.createDirectory(
      at: fixture.database.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    struct Crash: Error {}
    let error = #expect(throws: SetupError.self) {
      try TemplateInstaller.install(
        fixture.template,
        at: fixture.database,
        beforeLink: { throw Crash() }
      )
    }
    #expect(error?.message.hasSuffix("no database was created") == true)
    let left = try FileManager.default.contentsOfDirectory(
      atPath: fixture.database.deletingLastPathComponent().path
    )
    #expect(left.isEmpty)
  }

  @Test func existingDatabaseIsNeverOverwrittenByTheTemplate() throws {
    let fixture = try SetupFixture()
    try fixture.setup().run()
    let db = try Connection(path: fixture.database.path)
    try db.execute("INSERT INTO a VALUES ('keep me')")
    let report = try fixture.setup(template: fixture.template).run()
    #expect(!report.templateCopied && !report.created)
    #expect(try db.scalar("SELECT x FROM a") == .text("keep me"))
  }

  @Test func templateBuiltFromOtherMigrationsIsRefused() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write(
      "migrations/0002_b.sql",
      "CREATE TABLE b (id INTEGER PRIMARY KEY, other);"
    )
    let error = #expect(throws: SetupError.self) {
      try fixture.setup(template: fixture.template).run()
    }
    #expect(error?.message.contains("was built from other migrations") == true)
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }

  @Test func handMadeTemplateWithoutHistoryIsVersionZero() throws {
    let fixture = try SetupFixture(buildTemplate: false)
    let handMade = fixture.dir.path("test.db")
    try Connection(path: handMade.path).execute("CREATE TABLE a (x); INSERT INTO a VALUES (1);")
    let report = try fixture.setup(template: handMade).run()
    #expect(report.templateCopied && report.fromVersion == 0)
    #expect(report.appliedVersions == [1, 2, 3])
    #expect(try Connection(path: fixture.database.path).scalar("SELECT x FROM a") == .integer(1))
  }

  @Test func databaseNewerThanTheAppIsADistinctError() throws {
    let fixture = try SetupFixture()
    try fixture.setup().run()
    try FileManager.default.removeItem(at: fixture.dir.path("migrations/0003_c.sql"))
    let before = try Data(contentsOf: fixture.database)
    #expect(
      throws: SetupError.databaseIsNewer(
        path: fixture.database.path,
        versions: [3],
        newestKnown: 2
      )
    ) {
      try fixture.setup().run()
    }
    #expect(try Data(contentsOf: fixture.database) == before)
  }

  @Test func seedFilesLoadOnceAndAChangedFileLoadsAgain() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("seeds/b.csv", "id,a_x\n1,one\n2,two\n")
    var setup = fixture.setup(template: fixture.template)
    setup.seeds = fixture.dir.path("seeds")
    setup.seedsDisplayPath = "seeds"
    let first = try setup.run()
    #expect(first.seedFilesLoaded == ["seeds/b.csv"])
    let bytes = try Data(contentsOf: fixture.database)
    let second = try setup.run()
    #expect(second.seedFilesLoaded.isEmpty && !second.changedAnything)
    #expect(try Data(contentsOf: fixture.database) == bytes)
    try fixture.dir.write("seeds/b.csv", "id,a_x\n1,one\n2,two\n3,three\n")
    let third = try setup.run()
    #expect(third.seedFilesLoaded == ["seeds/b.csv"])
    #expect(
      try Connection(path: fixture.database.path).scalar("SELECT count(*) FROM b") == .integer(3)
    )
  }

  /// A bad seed file on first launch: the error says the database was created and migrated,
  /// not that it is unchanged.
  @Test func badSeedFileSaysWhatStateTheNewDatabaseIsIn() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("seeds/b.csv", "id,a_x\nnot-a-number,one\n")
    var setup = fixture.setup(template: fixture.template)
    setup.seeds = fixture.dir.path("seeds")
    setup.seedsDisplayPath = "seeds"
    // Issue 31: reported in the launch's report (never thrown), the database usable.
    let error = try setup.run().seedProblem
    let message = try #require(error?.message)
    #expect(message.hasPrefix("seeds/b.csv:2:1: column id (INTEGER)"))
    #expect(
      message.hasSuffix(
        "no seed rows were written (the bundled data is as before this launch, and the next "
          + "launch tries again), and \(fixture.database.path) is created, at version 3 and "
          + "usable, with the user's data safe"
      )
    )
    #expect(!message.contains("the database is unchanged"))
    #expect(
      error?.help.hasSuffix(
        "The seed file bundled with the app is wrong, and a user cannot change it: ship the "
          + "corrected file in the app's next version."
      ) == true
    )
    #expect(
      try Connection(path: fixture.database.path).scalar("SELECT count(*) FROM b") == .integer(0)
    )
  }

  /// A `kill -9` between copy and link leaves a temporary copy; the next install removes it.
  /// No process holds the name's build lock, so every copy is a leftover, however young.
  @Test func leftoverTemporaryCopiesAreRemovedWhateverTheirAge() throws {
    let fixture = try SetupFixture()
    let folder = fixture.database.deletingLastPathComponent()
    let stale = try fixture.dir.write("Documents/.data.sqlite3.strata-OLD.tmp", "leftover")
    _ = try fixture.dir.write("Documents/.data.sqlite3.strata-NEW.tmp", "killed just now")
    let other = try fixture.dir.write("Documents/notes.tmp", "not ours")
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -3600)],
      ofItemAtPath: stale.path
    )
    try fixture.setup(template: fixture.template).run()
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    #expect(left == [other.lastPathComponent, "data.sqlite3"])
  }
}

@Suite struct SetupLeftoverTests {
  /// A `kill -9` while the copy's history is stamped leaves the copy *and its rollback
  /// journal*; and once the database exists no install runs again. Every later run sweeps
  /// both; while another process holds the name's build lock (a build in progress, which may
  /// not have written its file for a long while), none.
  @Test func staleCopiesAndTheirJournalsAreSweptOnceTheDatabaseExists() throws {
    let fixture = try SetupFixture()
    try fixture.setup(template: fixture.template).run()
    let folder = fixture.database.deletingLastPathComponent()
    let names = [
      ".data.sqlite3.strata-OLD.tmp", ".data.sqlite3.strata-OLD.tmp-journal",
      ".data.sqlite3.strata-OLD.tmp-wal", ".data.sqlite3.strata-OLD.tmp-shm",
    ]
    for name in names {
      let url = try fixture.dir.write("Documents/\(name)", "leftover")
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: -3600)],
        ofItemAtPath: url.path
      )
    }
    let fresh = try fixture.dir.write("Documents/.data.sqlite3.strata-NEW.tmp-journal", "young")
    let building = try BuildLock(for: fixture.database, waitingMilliseconds: 0)
    let report = try fixture.setup(template: fixture.template).run()
    #expect(!report.changedAnything)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    #expect(
      left == Set(names + [fresh.lastPathComponent, ".data.sqlite3.strata-lock", "data.sqlite3"])
    )
    building.release()
    try fixture.setup(template: fixture.template).run()
    let after = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(after == ["data.sqlite3"])
  }
}
