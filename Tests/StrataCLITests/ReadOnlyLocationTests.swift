import Foundation
import Strata
import StrataTestSupport
import Testing

/// A database in a folder that cannot be written (so no `-journal`, `-wal` or `-shm` can be
/// created beside it), or a file that cannot be written.
///
/// Tests run as root, which ignores permission bits: strata checks the bits itself, so the
/// first tests use `chmod`. Where `setpriv` is there, the others run the real binary as the
/// unprivileged user `nobody`, for whom the kernel enforces the permissions.
@Suite struct ReadOnlyLocationTests {
  static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
  /// Root, `setpriv`, and a build folder that `nobody` may enter: a clone under `/root` (mode
  /// 0700) cannot run its binary as `nobody`, so those tests are skipped there, not failed.
  static let canRunAsNobody: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      let folder = try? TemporaryDirectory(),
      let probe = try? StrataProcess.run(["--version"], in: folder.url, launcher: nobody)
    else { return false }
    return probe.exitCode == 0
  }()

  /// Commands that write, each with the words its run must not get past.
  static let writingCommands: [[String]] = [
    ["migrate"], ["rollback"], ["seed", "seeds/student.csv"], ["init"],
    ["baseline", "--version", "1"],
  ]
  static let readingCommands: [[String]] = [
    ["status"], ["validate"], ["inspect"], ["inspect", "--diff"], ["migrate", "--dry-run"],
    ["rollback", "--dry-run"],
  ]

  /// The sample project with `db/app.sqlite3` at version 4 (one migration pending, one to roll
  /// back).
  private static func fixture(wal: Bool = false) throws -> (Project, URL) {
    let project = try Project.sample()
    try FileManager.default.createDirectory(
      at: project.dir.path("db"),
      withIntermediateDirectories: true
    )
    let migrate = try project.strata("migrate", "--database", "db/app.sqlite3", "--to", "4")
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    let database = project.dir.path("db/app.sqlite3")
    if wal {
      try Connection(path: database.path).execute("PRAGMA journal_mode = WAL")
    }
    return (project, database)
  }

  private static func setMode(_ mode: Int, _ url: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
  }

  private static func run(
    _ project: Project,
    _ command: [String],
    database: String = "db/app.sqlite3",
    asNobody: Bool = false
  ) throws -> ProcessResult {
    try StrataProcess.run(
      command + ["--database", database],
      in: project.dir.url,
      launcher: asNobody ? nobody : []
    )
  }

  /// Everything in the folder, byte for byte.
  private static func contents(of folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return result
  }

  // MARK: - By permission bits (as root)

  @Test(arguments: writingCommands)
  func writingCommandFailsUpFrontInAReadOnlyFolder(_ command: [String]) throws {
    let (project, database) = try Self.fixture()
    let folder = database.deletingLastPathComponent()
    let before = try Self.contents(of: folder)
    try Self.setMode(0o555, folder)
    defer { try? Self.setMode(0o755, folder) }
    let result = try Self.run(project, command)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: cannot write \(database.path): its folder \(folder.path) is not writable"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("nothing was changed"))
    #expect(
      result.standardError.contains("Help: Make the folder writable (chmod u+w \(folder.path))")
    )
    #expect(try Self.contents(of: folder) == before)
  }

  @Test func initCannotCreateADatabaseInAReadOnlyFolder() throws {
    let project = try Project.sample()
    #expect(try project.strata("template").exitCode == 0)
    let folder = project.dir.path("db")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Self.setMode(0o555, folder)
    defer { try? Self.setMode(0o755, folder) }
    for command in [["init"], ["migrate"]] {
      let result = try Self.run(project, command)
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains(
          "cannot create \(folder.path)/app.sqlite3: the folder \(folder.path) is not writable; "
            + "nothing was created"
        ),
        "\(result.standardError)"
      )
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
  }

  @Test(arguments: readingCommands)
  func readingCommandWorksInAReadOnlyFolder(_ command: [String]) throws {
    let (project, database) = try Self.fixture()
    let folder = database.deletingLastPathComponent()
    let before = try Self.contents(of: folder)
    try Self.setMode(0o555, folder)
    try Self.setMode(0o444, database)
    defer { try? Self.setMode(0o755, folder) }
    let result = try Self.run(project, command)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try Self.contents(of: folder) == before)
  }

  // MARK: - As an unprivileged user

  @Test(.enabled(if: canRunAsNobody), arguments: writingCommands)
  func writingCommandAsNobodyNamesTheFolder(_ command: [String]) throws {
    // The folder belongs to root (0755): nobody may write the file, not the folder.
    let (project, database) = try Self.fixture()
    let folder = database.deletingLastPathComponent()
    try Self.setMode(0o666, database)
    let before = try Self.contents(of: folder)
    let result = try Self.run(project, command, asNobody: true)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("its folder \(folder.path) is not writable"),
      "\(result.standardError)"
    )
    #expect(try Self.contents(of: folder) == before)
  }

  @Test(.enabled(if: canRunAsNobody))
  func readOnlyFileAsNobodyIsRefused() throws {
    let (project, database) = try Self.fixture()
    let folder = database.deletingLastPathComponent()
    try Self.setMode(0o777, folder)
    let before = try Self.contents(of: folder)
    let result = try Self.run(project, ["migrate"], asNobody: true)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("\(database.path) is read-only; nothing was changed"))
    #expect(try Self.contents(of: folder) == before)
  }

  @Test(.enabled(if: canRunAsNobody), arguments: readingCommands)
  func readingCommandAsNobodyWorksInRollbackJournalMode(_ command: [String]) throws {
    let (project, database) = try Self.fixture()
    let before = try Self.contents(of: database.deletingLastPathComponent())
    let result = try Self.run(project, command, asNobody: true)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try Self.contents(of: database.deletingLastPathComponent()) == before)
  }

  /// A WAL database can only be read where its `-shm` can be created: a clear error, not
  /// "read-only".
  @Test(.enabled(if: canRunAsNobody), arguments: readingCommands)
  func readingAWALDatabaseAsNobodyExplainsTheFolder(_ command: [String]) throws {
    let (project, database) = try Self.fixture(wal: true)
    let folder = database.deletingLastPathComponent()
    let before = try Self.contents(of: folder)
    let result = try Self.run(project, command, asNobody: true)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "cannot read \(database.path): it is in WAL mode, and SQLite must create "
          + "\(database.path)-shm beside it to read it, but the folder \(folder.path) is not "
          + "writable; nothing was changed"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Help: Make the folder writable"))
    #expect(try Self.contents(of: folder) == before)
  }

  /// As root (who may create `-shm` whatever the folder's bits) the same WAL database is
  /// readable, and stays in WAL mode; any other user gets the error above.
  @Test(.enabled(if: getuid() == 0))
  func readingAWALDatabaseInAReadOnlyFolderAsRoot() throws {
    let (project, database) = try Self.fixture(wal: true)
    let folder = database.deletingLastPathComponent()
    try Self.setMode(0o555, folder)
    defer { try? Self.setMode(0o755, folder) }
    let result = try Self.run(project, ["status"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try DatabaseProbe.rows(database, "PRAGMA journal_mode") == [[.text("wal")]])
  }

  /// An app's bundle is read-only; a template built from migrations that switch to WAL is a
  /// WAL database. `init` must still verify and copy it, creating nothing beside it.
  @Test(.enabled(if: canRunAsNobody))
  func walTemplateInAReadOnlyBundleAsNobody() throws {
    let project = try Project.sample()
    try project.write(
      "0006_wal.sql",
      "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n"
    )
    let bundle = project.dir.path("bundle")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    let built = try project.strata("template", "--output", "bundle/template.sqlite3")
    try #require(built.exitCode == 0, "\(built.standardError)")
    try #require(isWALDatabase(at: bundle.appendingPathComponent("template.sqlite3").path))
    let db = project.dir.path("db")
    try FileManager.default.createDirectory(at: db, withIntermediateDirectories: true)
    try Self.setMode(0o777, db)
    let before = try Self.contents(of: bundle)
    let result = try Self.run(
      project,
      ["init", "--template", "bundle/template.sqlite3"],
      asNobody: true
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("from the template"))
    #expect(try Self.contents(of: bundle) == before)
    let database = db.appendingPathComponent("app.sqlite3")
    #expect(try DatabaseFingerprint.of(database).versions == [1, 2, 3, 4, 5, 6])
    #expect(try DatabaseProbe.rows(database, "PRAGMA journal_mode") == [[.text("wal")]])
  }
}
