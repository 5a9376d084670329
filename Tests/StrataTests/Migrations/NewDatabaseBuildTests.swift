import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `Migrator.migrateNewDatabase`: a database that does not exist yet is built beside its name
/// and linked into place when the run ends.
struct NewDatabaseBuildTests {
  let dir: TemporaryDirectory

  init() throws {
    dir = try TemporaryDirectory()
  }

  private func migrator(_ files: [String: String]) throws -> Migrator {
    for (name, text) in files { try dir.write("m/\(name)", text) }
    return Migrator(try MigrationSet(directory: dir.path("m"), displayPath: "m"))
  }

  private func build(
    _ migrator: Migrator,
    at url: URL,
    options: MigrateOptions = MigrateOptions(),
    willRun: Migrator.WillRun? = nil
  ) throws -> (report: MigrationReport, connection: Connection)? {
    try migrator.migrateNewDatabase(
      at: url,
      options: options,
      busyTimeout: 1_000,
      configuration: .none,
      createsFolder: false,
      willRun: willRun,
      around: nil
    )
  }

  /// What is in the folder besides the migrations: the database, and no temporary file.
  private func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0 != "m" }.sorted()
  }

  @Test func newDatabaseHoldsEveryMigrationAndNothingIsLeftBeside() throws {
    let migrator = try migrator([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_b.sql": "INSERT INTO a VALUES (1), (2);",
    ])
    let url = dir.path("app.sqlite3")
    let built = try #require(try build(migrator, at: url))
    #expect(built.report.steps.map(\.version) == [1, 2])
    #expect(built.connection.path == url.path)
    #expect(try leftovers() == ["app.sqlite3"])
    let probe = try Connection.open(at: url, access: .read)
    #expect(try probe.scalar("SELECT count(*) FROM a")?.integerValue == 2)
    #expect(try migrator.plan(probe).currentVersion == 2)
    // The file is an ordinary rollback-journal database: nothing of the build's settings stays.
    #expect(try probe.scalar("PRAGMA journal_mode")?.textValue == "delete")
    #expect(try probe.scalar("PRAGMA integrity_check")?.textValue == "ok")
  }

  /// A failing migration: the file is linked with the migrations before it, and the error
  /// says so, naming the database by its own name (never the temporary one).
  @Test func failureLinksTheMigrationsBeforeIt() throws {
    let migrator = try migrator([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_bad.sql": "INSERT INTO missing VALUES (1);",
    ])
    let url = dir.path("app.sqlite3")
    #expect {
      _ = try build(migrator, at: url)
    } throws: { error in
      guard case .stopped(_, let state) = error as? MigrationError else { return false }
      let message = (error as? MigrationError)?.message ?? ""
      return state.databaseVersion == 1 && !message.contains(".strata-")
    }
    #expect(try leftovers() == ["app.sqlite3"])
    let probe = try Connection.open(at: url, access: .read)
    #expect(try migrator.plan(probe).currentVersion == 1)
  }

  /// Something already at the name (a file, or a link even to nothing): not built here.
  @Test func takenNameIsLeftToTheUsualPath() throws {
    let migrator = try migrator(["0001_a.sql": "CREATE TABLE a (x);"])
    let empty = try dir.write("empty.sqlite3", "")
    #expect(try build(migrator, at: empty)?.report == nil)
    #expect(try Data(contentsOf: empty).isEmpty)
    let link = dir.path("link.sqlite3")
    try FileManager.default.createSymbolicLink(
      atPath: link.path,
      withDestinationPath: dir.path("elsewhere.sqlite3").path
    )
    #expect(try build(migrator, at: link)?.report == nil)
    let dryRun = MigrateOptions(dryRun: true)
    #expect(try build(migrator, at: dir.path("dry.sqlite3"), options: dryRun)?.report == nil)
    #expect(try leftovers() == ["empty.sqlite3", "link.sqlite3"])
  }

  /// Another process creates the database while this one builds: its file is kept, this build
  /// is thrown away, and the caller is told to migrate the file that is there.
  @Test func databaseCreatedMeanwhileIsNeverOverwritten() throws {
    let migrator = try migrator(["0001_a.sql": "CREATE TABLE a (x);"])
    let url = dir.path("app.sqlite3")
    final class Other { var connection: Connection? }
    let other = Other()
    let result = try build(migrator, at: url) { _, _, _ in
      let connection = try Connection(path: url.path)
      try connection.execute("CREATE TABLE theirs (y)")
      other.connection = connection
    }
    #expect(result?.report == nil)
    #expect(try leftovers() == ["app.sqlite3"])
    let theirs = try #require(other.connection)
    let names = try theirs.rows("SELECT name FROM sqlite_master ORDER BY name").map { $0[0] }
    #expect(names == [.text("theirs")])
  }

  /// A migration that turns WAL on: what was committed in the log is in the file that is linked.
  @Test func walSwitchedOnByAMigrationIsCheckpointedIntoTheFile() throws {
    let migrator = try migrator([
      "0001_wal.sql": "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n",
      "0002_a.sql": "-- migrate:up\nCREATE TABLE a (x); INSERT INTO a VALUES (1), (2), (3);\n",
    ])
    let url = dir.path("app.sqlite3")
    let built = try #require(try build(migrator, at: url))
    #expect(built.report.steps.count == 2)
    // Only the file itself: a copy without any -wal beside it must hold every row.
    let copy = dir.path("copy.sqlite3")
    try FileManager.default.copyItem(at: url, to: copy)
    let probe = try Connection.open(at: copy, access: .read)
    #expect(try probe.scalar("SELECT count(*) FROM a")?.integerValue == 3)
  }

  /// The launch call without a template builds the new database the same way: while its
  /// migrations run there is nothing at the name yet, and after the call the file holds them.
  @Test func launchCallBuildsTheNewDatabaseBesideItsName() throws {
    _ = try migrator([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_b.sql": "INSERT INTO a VALUES (1);",
    ])
    let url = dir.path("app.sqlite3")
    final class Seen: @unchecked Sendable { var existed: [Bool] = [] }
    let seen = Seen()
    var setup = DatabaseSetup(database: url, migrations: dir.path("m"))
    setup.progress = { step in
      if case .migrating = step {
        seen.existed.append(FileManager.default.fileExists(atPath: url.path))
      }
    }
    let report = try setup.run()
    #expect(seen.existed == [false, false])
    #expect(report.created)
    #expect(report.fromVersion == 0)
    #expect(report.appliedVersions == [1, 2])
    #expect(try leftovers() == ["app.sqlite3"])
    let probe = try Connection.open(at: url, access: .read)
    #expect(try probe.scalar("SELECT count(*) FROM a")?.integerValue == 1)
  }

  /// A file system without hard links (FAT, some network shares): the build is thrown away
  /// and nothing is at the name, so the caller migrates in place as before.
  @Test func noHardLinksFallsBackToMigratingInPlace() throws {
    let migrator = try migrator(["0001_a.sql": "CREATE TABLE a (x);"])
    let url = dir.path("app.sqlite3")
    let result = try migrator.migrateNewDatabase(
      at: url,
      options: MigrateOptions(),
      busyTimeout: 1_000,
      configuration: .none,
      createsFolder: false,
      willRun: nil,
      around: nil,
      linkIntoPlace: { _, _ in
        throw FileSyncError(reason: "linking it into place failed", linksUnsupported: true)
      }
    )
    #expect(result == nil)
    #expect(try leftovers().isEmpty)
    let connection = try Connection.open(at: url, access: .create)
    #expect(try migrator.migrate(connection).steps.count == 1)
  }

  /// Another process holds the name's build lock for longer than the busy timeout: said as
  /// such, and nothing is created.
  @Test func buildLockHeldTooLongIsSaidAsACreationInProgress() throws {
    let migrator = try migrator(["0001_a.sql": "CREATE TABLE a (x);"])
    let url = dir.path("app.sqlite3")
    let other = try BuildLock(for: url, waitingMilliseconds: 0)
    #expect(throws: DatabaseOpenError.beingCreated(path: url.path, waitedMilliseconds: 100)) {
      _ = try migrator.migrateNewDatabase(
        at: url,
        options: MigrateOptions(),
        busyTimeout: 100,
        configuration: .none,
        createsFolder: false,
        willRun: nil,
        around: nil
      )
    }
    other.release()
    #expect(try leftovers().isEmpty)
  }

  /// A run killed between the link and its end leaves a second name of the database and its
  /// lock file; the next run on the database, which finds it there, removes both.
  @Test func leftoversBesideAnExistingDatabaseGoWithTheNextRun() throws {
    let migrator = try migrator(["0001_a.sql": "CREATE TABLE a (x);"])
    let url = dir.path("app.sqlite3")
    _ = try #require(try build(migrator, at: url))
    #expect(link(url.path, dir.path(".app.sqlite3.strata-KILLED.tmp").path) == 0)
    try dir.write(".app.sqlite3.strata-lock", "")
    #expect(try build(migrator, at: url)?.report == nil)
    #expect(try leftovers() == ["app.sqlite3"])
  }
}
