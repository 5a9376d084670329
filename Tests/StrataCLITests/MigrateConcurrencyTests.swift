import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct MigrateConcurrencyTests {
  /// `strata migrate` processes on one file at the same moment, many times over.
  @Test func concurrentProcessesApplyEachMigrationExactlyOnce() throws {
    var files: [String: String] = [:]
    for version in 1...12 {
      let name = String(format: "%04d_t%d.sql", version, version)
      files[name] = "CREATE TABLE t\(version) (x);\nINSERT INTO t\(version) VALUES (\(version));"
    }
    let project = try Project(files)
    for round in 0..<10 {
      let database = "round\(round).sqlite3"
      // Three at once, so that at least two overlap even when starting one takes a while.
      let processes = try (0..<3).map { _ in
        try StrataProcess.start(["migrate", "--database", database], in: project.dir.url)
      }
      for process in processes { process.waitUntilExit() }
      #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "round \(round)")
      let url = project.dir.path(database)
      let versions = try DatabaseProbe.rows(url, "SELECT version FROM strata_migrations")
      #expect(versions.count == 12)
      for version in 1...12 {
        #expect(try DatabaseProbe.integer(url, "SELECT count(*) FROM t\(version)") == 1)
      }
    }
  }

  /// `kill -9` in the middle of a slow migration: the file is intact, at the old version, and
  /// the next `migrate` completes.
  @Test func killDuringASlowMigrationLeavesTheOldVersion() throws {
    let project = try Project.killedDuringSlowMigration()
    let db = try Connection(path: project.database.path)
    #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    #expect(try db.scalar("SELECT max(version) FROM strata_migrations") == .integer(1))
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'big'") == .integer(0)
    )
    let rerun = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(rerun.exitCode == 0)
    #expect(try project.versions() == [1, 2])
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM big") == 3_000_000)
  }
}
