import Foundation
import StrataTestSupport
import Testing

/// A database that does not exist yet is built beside its name: a `kill -9` during the build
/// leaves no database (never a part-built one), and a rerun builds it whole and sweeps what the
/// killed run left.
@Suite struct NewDatabaseCrashTests {
  // Not under a sanitizer: the slow migration's rows take minutes there, and what it checks
  // (which files a killed process leaves) is not what a sanitizer looks at.
  @Test(.notUnderSanitizer) func killDuringTheBuildLeavesNoDatabaseAndARerunBuildsIt() throws {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_slow.sql": """
      CREATE TABLE big (n INTEGER, filler TEXT);
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3000000)
      INSERT INTO big SELECT n, hex(randomblob(16)) FROM c;
      """,
    ])
    let process = try StrataProcess.start(
      ["migrate", "--database", "app.sqlite3"],
      in: project.dir.url
    )
    // Kill once the build has written a good part of its file.
    func building() -> [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: project.dir.url.path))
      return (names ?? []).filter { $0.hasPrefix(".app.sqlite3.strata-") }
    }
    func buildSize() -> Int {
      building().compactMap {
        let path = project.dir.path($0).path
        return (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
      }.max() ?? 0
    }
    let deadline = Date().addingTimeInterval(60)
    while buildSize() < 4 << 20, Date() < deadline, process.isRunning { usleep(2_000) }
    try #require(process.isRunning, "the run ended before it could be killed")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("app.sqlite3").path))
    #expect(!building().isEmpty, "the killed build left nothing to sweep later")
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0)
    #expect(status.standardOutput.contains("2 pending"), "\(status.standardOutput)")
    let rerun = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(rerun.exitCode == 0, "\(rerun.standardError)")
    let rows = try DatabaseProbe.rows(project.dir.path("app.sqlite3"), "SELECT count(*) FROM big")
    #expect(rows == [[.integer(3_000_000)]])
    // The run that linked its database swept what the killed one left.
    #expect(building().isEmpty, "\(building())")
  }

  /// The run's words are those of a run on an existing file, and `--backup`, which copies an
  /// existing file, takes the usual way (a new database has nothing to back up first).
  @Test func newDatabaseIsReportedAsAnyRunIs() throws {
    let project = try Project(["0001_a.sql": "CREATE TABLE a (x);"])
    let run = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.hasSuffix("app.sqlite3 is now at version 1.\n"),
      "\(run.standardOutput)"
    )
    let names = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
    #expect(!names.contains { $0.contains(".strata-") }, "\(names)")
    let backedUp = try project.strata("migrate", "--database", "other.sqlite3", "--backup")
    #expect(backedUp.exitCode == 0, "\(backedUp.standardError)")
    let again = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(again.standardOutput.contains("up to date"), "\(again.standardOutput)")
  }

  /// Two runs creating one database at once: the second waits for the first's build, then
  /// finds the database there, so a migration with an effect outside the file (a write to an
  /// attached database) happens once, as two runs on an existing file do it.
  @Test func twoRunsCreatingOneDatabaseApplyEachMigrationOnce() throws {
    for round in 1...6 {
      let project = try Project([
        "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
        "0002_side.sql": "-- migrate:up transaction:false\nATTACH 'side.sqlite3' AS side;\n"
          + "CREATE TABLE IF NOT EXISTS side.s (n);\nINSERT INTO side.s VALUES (1);\n"
          + "DETACH side;\n",
        "0003_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
      ])
      let runs = try (1...2).map { _ in
        try StrataProcess.start(["migrate", "--database", "app.sqlite3"], in: project.dir.url)
      }
      for run in runs { run.waitUntilExit() }
      #expect(runs.map(\.terminationStatus) == [0, 0], "round \(round)")
      let side = try DatabaseProbe.rows(project.dir.path("side.sqlite3"), "SELECT count(*) FROM s")
      #expect(side == [[.integer(1)]], "round \(round)")
      let versions = try DatabaseProbe.rows(
        project.dir.path("app.sqlite3"),
        "SELECT version FROM strata_migrations ORDER BY version"
      )
      #expect(versions == [[.integer(1)], [.integer(2)], [.integer(3)]], "round \(round)")
      let names = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
      #expect(!names.contains { $0.contains(".strata-") }, "round \(round): \(names)")
    }
  }
}
