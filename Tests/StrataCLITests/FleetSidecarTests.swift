import Foundation
import Strata
import StrataTestSupport
import Testing

/// `--databases` never takes a file that belongs to another database for a database: SQLite's
/// `-journal`, `-wal` and `-shm`, strata's backups and damaged copies. A pattern leaves them out
/// and says so; a path named outright stops the run before anything is opened.
@Suite struct FleetSidecarTests {
  private static let up = FleetCommandTests.up
  private static let journalNote =
    "Note: left out 1 file that belongs to another database: t/acme.db-journal "
    + "(acme.db's rollback journal)\n"

  /// A project with `t/acme.db` at version 1 (of 2) and the empty files `sidecars` in `t/`.
  private func project(upToDate: Bool = false, sidecars: [String] = []) throws -> Project {
    let project = try Project(Self.up)
    try project.dir.write("t/acme.db", "")
    var arguments = ["migrate", "--database", "t/acme.db"]
    if !upToDate { arguments += ["--to", "1"] }
    let migrated = try StrataProcess.run(arguments, in: project.dir.url)
    try #require(migrated.exitCode == 0, "\(migrated.standardError)")
    for name in sidecars { try project.dir.write("t/\(name)", "") }
    return project
  }

  private func version(_ project: Project, _ path: String) throws -> Int64? {
    try DatabaseProbe.integer(project.dir.path(path), "SELECT max(version) FROM strata_migrations")
  }

  private func bytes(_ project: Project, _ path: String) throws -> Data {
    try Data(contentsOf: project.dir.path(path))
  }

  /// The issue's case: `t/*` matches acme.db's empty rollback journal. It is left out, byte
  /// for byte as it was, and the run says so; acme.db (up to date, so SQLite has no reason to
  /// touch its journal) and a new database beside it are migrated; exit 0.
  @Test func aGlobLeavesOutAJournalAndSaysSo() throws {
    let project = try project(upToDate: true, sidecars: ["acme.db-journal"])
    try project.dir.write("t/new.db", "")
    let result = try project.strata("migrate", "--databases", "t/*")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "1 migrated, 1 already up to date, 0 failed (2 databases)\n")
    #expect(result.standardError == Self.journalNote)
    #expect(try bytes(project, "t/acme.db-journal").isEmpty)
    #expect(try version(project, "t/acme.db") == 2)
    #expect(try version(project, "t/new.db") == 2)
    // Said with --quiet too, and in JSON.
    let quiet = try project.strata("status", "--databases", "t/*", "--quiet")
    #expect(quiet.exitCode == 0)
    #expect(quiet.standardError == Self.journalNote)
    let json = try project.strata("status", "--databases", "t/*", "--format", "json")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    )
    let leftOut = try #require(object["leftOut"] as? [[String: String]])
    #expect(leftOut == [["file": "t/acme.db-journal", "reason": "acme.db's rollback journal"]])
    #expect(try bytes(project, "t/acme.db-journal").isEmpty)
  }

  /// A `-shm`, a backup strata wrote, a damaged copy a restore kept and a link to a journal:
  /// all left out, each named with what it is, and unchanged: the backup still holds version 1.
  @Test func aGlobLeavesOutShmBackupsDamagedCopiesAndLinks() throws {
    let project = try project(sidecars: ["acme.db-shm"])
    let backup = try project.strata("migrate", "--database", "t/acme.db", "--backup")
    try #require(backup.exitCode == 0, "\(backup.standardError)")
    // After that run, which wrote acme.db and so made and deleted a journal of its own.
    try project.dir.write("t/acme.db-journal", "")
    let backups = try FileManager.default.contentsOfDirectory(atPath: project.dir.path("t").path)
      .filter { $0.hasPrefix("acme.db.backup-") }
    let backupName = try #require(backups.first)
    let backupBytes = try bytes(project, "t/" + backupName)
    let damaged = "acme.db.damaged-20261201T053012.345Z"
    try project.dir.write("t/" + damaged, "bytes SQLite could not read\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("t/link.db").path,
      withDestinationPath: "acme.db-journal"
    )
    let result = try project.strata("migrate", "--databases", "t/*")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "0 migrated, 1 already up to date, 0 failed (1 database)\n")
    let journal = project.dir.path("t/acme.db-journal").path
    let expected = [
      "t/acme.db-journal (acme.db's rollback journal)",
      "t/acme.db-shm (acme.db's shared-memory index)",
      "t/\(backupName) (a backup of acme.db)",
      "t/\(damaged) (the damaged copy of acme.db that a restore kept)",
      "t/link.db (a link to \(journal), which is acme.db's rollback journal)",
    ]
    #expect(
      result.standardError
        == "Note: left out 5 files that belong to other databases: "
        + expected.joined(separator: ", ") + "\n"
    )
    #expect(try version(project, "t/acme.db") == 2)
    #expect(try bytes(project, "t/" + backupName) == backupBytes)
    #expect(try bytes(project, "t/acme.db-shm").isEmpty)
    #expect(try bytes(project, "t/acme.db-journal").isEmpty)
    #expect(
      try String(contentsOf: project.dir.path("t/" + damaged), encoding: .utf8)
        == "bytes SQLite could not read\n"
    )
  }

  /// A dangling link to a journal name: SQLite would create the journal through it, so it is
  /// left out too, and nothing is created.
  @Test func aDanglingLinkToAJournalIsLeftOut() throws {
    let project = try project(upToDate: true)
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("t/dangling.db").path,
      withDestinationPath: "gone.db-journal"
    )
    let result = try project.strata("migrate", "--databases", "t/*.db")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "0 migrated, 1 already up to date, 0 failed (1 database)\n")
    let target = project.dir.path("t").path + "/gone.db-journal"
    #expect(
      result.standardError
        == "Note: left out 1 file that belongs to another database: t/dangling.db (a link to "
        + "\(target), which is gone.db's rollback journal)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  /// An `@FILE` list naming acme.db's `-wal` before acme.db: the run stops at that line
  /// before anything is opened; the `-wal` stays empty and acme.db at version 1.
  @Test func aListedWALStopsTheRunBeforeAnythingIsOpened() throws {
    let project = try project(sidecars: ["acme.db-wal"])
    let database = try bytes(project, "t/acme.db")
    try project.dir.write("list.txt", "# tenants\nt/acme.db-wal\nt/acme.db\n")
    let result = try project.strata("migrate", "--databases", "@list.txt")
    #expect(result.exitCode == 1)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix(
        "Error: list.txt:2: 't/acme.db-wal' is acme.db's write-ahead log, not a database; "
          + "nothing was opened\nHelp: Name the database itself."
      ),
      "\(result.standardError)"
    )
    #expect(try bytes(project, "t/acme.db-wal").isEmpty)
    #expect(try bytes(project, "t/acme.db") == database)
  }

  /// A sidecar named outright is refused whether it and its database are there or not;
  /// nothing is created, and the file named is left as it was.
  @Test(arguments: [
    ("t/acme.db-journal", "acme.db's rollback journal"),
    ("t/gone.db-journal", "gone.db's rollback journal"),
    ("t/gone.db-wal", "gone.db's write-ahead log"),
    ("t/gone.db.damaged-20261201T053012.345Z", "the damaged copy of gone.db that a restore kept"),
  ])
  func aSidecarNamedOutrightIsRefused(_ path: String, _ reason: String) throws {
    let project = try project(sidecars: ["acme.db-journal", "gone.db-journal"])
    let existed = FileManager.default.fileExists(atPath: project.dir.path(path).path)
    for command in ["migrate", "status"] {
      let result = try project.strata(command, "--databases", path)
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.hasPrefix(
          "Error: --databases '\(path)' is \(reason), not a database; nothing was opened\n"
        ),
        "\(result.standardError)"
      )
    }
    let fileManager = FileManager.default
    #expect(fileManager.fileExists(atPath: project.dir.path(path).path) == existed)
    if existed { #expect(try bytes(project, path).isEmpty) }
    #expect(!fileManager.fileExists(atPath: project.dir.path("t/gone.db").path))
    #expect(try version(project, "t/acme.db") == 1)
  }

  /// A pattern that matches only files of other databases is an error, as one that matches
  /// nothing: exit 1, nothing opened.
  @Test func aPatternMatchingOnlySidecarsFails() throws {
    let project = try project(sidecars: ["acme.db-wal", "acme.db-shm"])
    let result = try project.strata("migrate", "--databases", "t/acme.db-*")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.hasPrefix(
        "Error: --databases 't/acme.db-*' matches only files that belong to other databases: "
          + "t/acme.db-shm (acme.db's shared-memory index), t/acme.db-wal (acme.db's "
          + "write-ahead log); nothing was opened\n"
      ),
      "\(result.standardError)"
    )
    #expect(try bytes(project, "t/acme.db-wal").isEmpty)
    #expect(try version(project, "t/acme.db") == 1)
  }

  /// A hard link to acme.db's `-wal` under a database's name is the same file: left out by a
  /// pattern, refused when named, so nothing is built inside the log SQLite writes.
  @Test func aHardLinkToAWALIsTheWAL() throws {
    let project = try project(upToDate: true, sidecars: ["acme.db-wal"])
    try #require(
      link(project.dir.path("t/acme.db-wal").path, project.dir.path("t/0tenant.db").path) == 0
    )
    let result = try project.strata("migrate", "--databases", "t/*", "--jobs", "1")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "t/0tenant.db (the same file as \(project.dir.path("t/acme.db-wal").path) (a hard link), "
          + "which is acme.db's write-ahead log)"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardOutput == "0 migrated, 1 already up to date, 0 failed (1 database)\n")
    #expect(try bytes(project, "t/acme.db-wal").isEmpty)
    let named = try project.strata("migrate", "--databases", "t/0tenant.db")
    #expect(named.exitCode == 1)
    #expect(named.standardError.contains("is the same file as"), "\(named.standardError)")
    #expect(try bytes(project, "t/0tenant.db").isEmpty)
  }

  /// Names whose bytes end in a sidecar's suffix in another case, or after a character that
  /// joins the '-' to itself, and SQLite's super-journals: left out, and unchanged.
  @Test func suffixesAreReadAsBytesInAnyCase() throws {
    let odd = "x\u{0600}"
    let names = ["acme.db-WAL", "other.db-JOURNAL", odd + "-wal", "acme.db-mj5F3A2B9C1"]
    let project = try project(upToDate: true, sidecars: names)
    let result = try project.strata("migrate", "--databases", "t/*")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardError.hasPrefix("Note: left out 4 files that belong to other databases"),
      "\(result.standardError)"
    )
    for name in names { #expect(try bytes(project, "t/" + name).isEmpty, "\(name)") }
    try project.dir.write("list.txt", "t/\(odd)-wal\n")
    let listed = try project.strata("status", "--databases", "@list.txt")
    #expect(listed.exitCode == 1)
    #expect(listed.standardError.contains("write-ahead log, not a database"))
  }
}
