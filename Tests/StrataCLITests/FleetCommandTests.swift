import Foundation
import Strata
import StrataTestSupport
import Testing

/// `--databases`: many databases in one run of the real binary, each as a single run would
/// treat it, a failure staying with its file.
@Suite struct FleetCommandTests {
  static let up = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
  ]

  private func run(_ project: Project, _ arguments: String...) throws -> ProcessResult {
    try StrataProcess.run(arguments, in: project.dir.url)
  }

  /// The applied version of a database (0 without a history).
  private func version(_ url: URL) throws -> Int64 {
    guard try DatabaseProbe.tables(url).contains("strata_migrations") else { return 0 }
    return try DatabaseProbe.integer(url, "SELECT max(version) FROM strata_migrations") ?? 0
  }

  private func touch(_ project: Project, _ paths: [String]) throws {
    for path in paths { try project.dir.write(path, "") }
  }

  /// `**` crosses folders, hidden names are left alone, the run is quiet but for its summary,
  /// and a second run finds every database up to date.
  @Test func globAcrossFoldersMigratesEachOnce() throws {
    let project = try Project(Self.up)
    try touch(
      project,
      ["dbs/t1.db", "dbs/t2.db", "dbs/x/y/t3.db", "dbs/.hidden/h.db", "dbs/.h.db"]
    )
    let first = try run(project, "migrate", "--databases", "dbs/**/*.db")
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(first.standardOutput == "3 migrated, 0 already up to date, 0 failed (3 databases)\n")
    #expect(first.standardError.isEmpty)
    for path in ["dbs/t1.db", "dbs/t2.db", "dbs/x/y/t3.db"] {
      #expect(try version(project.dir.path(path)) == 2)
    }
    for hidden in ["dbs/.hidden/h.db", "dbs/.h.db"] {
      #expect(try Data(contentsOf: project.dir.path(hidden)).isEmpty)
    }
    let dotted = try run(project, "migrate", "--databases", "dbs/.*.db", "--jobs", "1")
    #expect(dotted.standardOutput == "1 migrated, 0 already up to date, 0 failed (1 database)\n")
    let again = try run(project, "migrate", "--databases", "dbs/**/*.db", "--quiet")
    #expect(again.exitCode == 0)
    #expect(again.standardOutput.isEmpty)
  }

  /// A file that is not SQLite and a folder among the matches fail alone, named with their
  /// errors; the others are migrated; exit 1; the text file is untouched. JSON has one object
  /// per database and the summary.
  @Test func nonSQLiteMatchIsReportedForThatFile() throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db", "dbs/c.db"])
    try project.dir.write("dbs/b.db", "notes, not a database\n")
    try FileManager.default.createDirectory(
      at: project.dir.path("dbs/d.db"),
      withIntermediateDirectories: true
    )
    let result = try run(project, "migrate", "--databases", "dbs/*.db", "--format", "json")
    #expect(result.exitCode == 1)
    let json = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    )
    let databases = try #require(json["databases"] as? [[String: Any]])
    #expect(
      databases.map { $0["database"] as? String } == [
        "dbs/a.db", "dbs/b.db", "dbs/c.db", "dbs/d.db",
      ]
    )
    #expect(
      databases.map { $0["result"] as? String } == ["migrated", "failed", "migrated", "failed"]
    )
    let error = try #require(databases[1]["error"] as? [String: Any])
    #expect((error["message"] as? String)?.contains("is not an SQLite database") == true)
    let summary = try #require(json["summary"] as? [String: Int])
    #expect(summary["migrated"] == 2 && summary["failed"] == 2 && summary["databases"] == 4)
    #expect(try version(project.dir.path("dbs/a.db")) == 2)
    #expect(try version(project.dir.path("dbs/c.db")) == 2)
    #expect(
      try String(contentsOf: project.dir.path("dbs/b.db"), encoding: .utf8)
        == "notes, not a database\n"
    )
    let text = try run(project, "migrate", "--databases", "dbs/*.db")
    #expect(text.exitCode == 1)
    #expect(text.standardOutput == "0 migrated, 2 already up to date, 2 failed (4 databases)\n")
    #expect(
      text.standardError.contains("dbs/b.db is not an SQLite database"),
      "\(text.standardError)"
    )
    #expect(text.standardError.contains("dbs/d.db"), "\(text.standardError)")
    // The help speaks of the pattern that reached the file, never of a --database not given.
    let helps = text.standardError.split(separator: "\n").filter { $0.hasPrefix("Help: ") }
    #expect(helps.count == 2, "\(text.standardError)")
    #expect(helps.allSatisfy { $0.contains("--databases") }, "\(helps)")
    #expect(!text.standardError.contains("--database "), "\(text.standardError)")
    #expect(!text.standardError.contains("--database)"), "\(text.standardError)")
  }

  /// A glob matching nothing is an error (exit 1) and creates nothing.
  @Test func globMatchingNothingFails() throws {
    let project = try Project(Self.up)
    let result = try run(project, "migrate", "--databases", "tenants/*.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("no file matches --databases 'tenants/*.sqlite3'"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Help: Quote the pattern"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("tenants").path))
  }

  /// `--database` with `--databases`, `--dry-run` or rollback's `--steps` across a fleet, and
  /// rollback without `--to`: usage errors (64), nothing touched.
  @Test(arguments: [
    (["migrate", "--database", "x.db"], "--database and --databases cannot be used together"),
    (["migrate", "--dry-run"], "--dry-run cannot be used with --databases"),
    (["rollback", "--steps", "1"], "--steps cannot be used with --databases"),
    (["rollback"], "--databases needs --to VERSION"),
    (["status", "--database", "x.db"], "--database and --databases cannot be used together"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db"])
    let result = try StrataProcess.run(
      arguments + ["--databases", "dbs/*.db"],
      in: project.dir.url
    )
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(try Data(contentsOf: project.dir.path("dbs/a.db")).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("x.db").path))
  }

  /// Two globs, a list file and a symbolic link reaching the same files count each once.
  @Test func sameFileMatchedTwiceCountsOnce() throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db", "dbs/b.db"])
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("dbs/link.db").path,
      withDestinationPath: "a.db"
    )
    try project.dir.write("list.txt", "# tenants\ndbs/a.db\n\n./dbs/b.db\ndbs/new.db\n")
    let result = try run(
      project,
      "migrate",
      "--databases",
      "dbs/*.db",
      "--databases",
      "dbs/a*",
      "--databases",
      "@list.txt"
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "3 migrated, 0 already up to date, 0 failed (3 databases)\n")
    #expect(try version(project.dir.path("dbs/new.db")) == 2)
  }

  /// A database locked by another connection: its file fails after the busy timeout, unchanged;
  /// the others are migrated.
  @Test func lockedDatabaseFailsAloneAfterTheBusyTimeout() throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db", "dbs/b.db", "dbs/c.db"])
    let holder = try Connection(path: project.dir.path("dbs/b.db").path)
    try holder.execute("BEGIN EXCLUSIVE")
    let started = Date()
    let result = try run(project, "migrate", "--databases", "dbs/*.db", "--busy-timeout", "300")
    let waited = Date().timeIntervalSince(started)
    try holder.execute("COMMIT")
    #expect(result.exitCode == 1)
    #expect(result.standardOutput == "2 migrated, 0 already up to date, 1 failed (3 databases)\n")
    #expect(
      result.standardError.contains("is locked by another connection"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("dbs/b.db"))
    #expect(waited >= 0.3)
    #expect(try version(project.dir.path("dbs/a.db")) == 2)
    #expect(try version(project.dir.path("dbs/b.db")) == 0)
    #expect(try version(project.dir.path("dbs/c.db")) == 2)
  }

  /// A database newer than the migrations fails for that file only, unchanged.
  @Test func newerDatabaseFailsAlone() throws {
    var newer = Self.up
    newer["0003_c.sql"] = "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n"
    let project = try Project(Self.up)
    for (name, text) in newer { try project.dir.write("newer/\(name)", text) }
    try touch(project, ["dbs/a.db", "dbs/b.db"])
    let ahead = try run(project, "migrate", "--database", "dbs/b.db", "--migrations", "newer")
    try #require(ahead.exitCode == 0)
    let result = try run(project, "migrate", "--databases", "dbs/*.db")
    #expect(result.exitCode == 1)
    #expect(result.standardOutput == "1 migrated, 0 already up to date, 1 failed (2 databases)\n")
    #expect(result.standardError.contains("dbs/b.db"), "\(result.standardError)")
    #expect(try version(project.dir.path("dbs/a.db")) == 2)
    #expect(try version(project.dir.path("dbs/b.db")) == 3)
  }

  /// `status` prints a line per database; `--check` exits 1 when one is behind; `rollback --to`
  /// moves every database to that version.
  @Test func statusAndRollbackAcrossAFleet() throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db", "dbs/b.db"])
    _ = try run(project, "migrate", "--databases", "dbs/a.db")
    let status = try run(project, "status", "--databases", "dbs/*.db", "--check")
    #expect(status.exitCode == 1)
    #expect(
      status.standardOutput
        == "dbs/a.db: version 2, up to date\ndbs/b.db: version 0, 2 pending\n"
        + "1 up to date, 1 behind, 0 failed (2 databases)\n"
    )
    #expect(try run(project, "migrate", "--databases", "dbs/*.db").exitCode == 0)
    #expect(try run(project, "status", "--databases", "dbs/*.db", "--check").exitCode == 0)
    let back = try run(project, "rollback", "--databases", "dbs/*.db", "--to", "1")
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(back.standardOutput == "2 rolled back, 0 already up to date, 0 failed (2 databases)\n")
    #expect(try version(project.dir.path("dbs/a.db")) == 1)
    #expect(try version(project.dir.path("dbs/b.db")) == 1)
  }

  /// `--fail-fast`: after the first failure no further database is started.
  @Test func failFastStartsNoMore() throws {
    let project = try Project(Self.up)
    try project.dir.write("dbs/a.db", "text\n")
    try touch(project, ["dbs/b.db", "dbs/c.db"])
    let result = try run(
      project,
      "migrate",
      "--databases",
      "dbs/*.db",
      "--jobs",
      "1",
      "--fail-fast"
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput
        == "0 migrated, 0 already up to date, 1 failed, 2 not started (3 databases)\n"
    )
    #expect(try version(project.dir.path("dbs/b.db")) == 0)
  }

  /// `validate --databases`: a database whose schema drifted is named with its problem, the
  /// others pass; exit 1; `--files-only` is refused across a fleet.
  @Test func validateAcrossAFleet() throws {
    let project = try Project(Self.up)
    try touch(project, ["dbs/a.db", "dbs/b.db"])
    #expect(try run(project, "migrate", "--databases", "dbs/*.db").exitCode == 0)
    #expect(
      try run(project, "validate", "--databases", "dbs/*.db").standardOutput
        == "2 valid, 0 with problems, 0 failed (2 databases)\n"
    )
    try Connection(path: project.dir.path("dbs/b.db").path).execute("CREATE TABLE extra (x)")
    let result = try run(project, "validate", "--databases", "dbs/*.db")
    #expect(result.exitCode == 1)
    #expect(result.standardOutput == "1 valid, 1 with problems, 0 failed (2 databases)\n")
    #expect(result.standardError.contains("Error: dbs/b.db: "), "\(result.standardError)")
    #expect(result.standardError.contains("extra"), "\(result.standardError)")
    let filesOnly = try run(project, "validate", "--databases", "dbs/*.db", "--files-only")
    #expect(filesOnly.exitCode == 64)
  }
}
