import Foundation
import Testing

extension Project {
  /// A project whose migration 2 writes long enough to be killed mid-way: migrated to 1, then
  /// a `migrate` killed with SIGKILL while its rollback journal is hot.
  static func killedDuringSlowMigration() throws -> Project {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_slow.sql": """
      CREATE TABLE big (n INTEGER, filler TEXT);
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3000000)
      INSERT INTO big SELECT n, hex(randomblob(16)) FROM c;
      """,
    ])
    let first = try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    try #require(first.exitCode == 0, "\(first.standardError)")
    let journal = project.dir.path("app.sqlite3-journal")
    let process = try StrataProcess.start(
      ["migrate", "--database", "app.sqlite3"],
      in: project.dir.url
    )
    // Wait until the migration is writing (the rollback journal holds its header and a page),
    // then kill it. A journal that merely exists may still be empty, and SQLite does not take
    // an empty journal for a hot one, so a kill at that moment would test nothing.
    let deadline = Date().addingTimeInterval(30)
    func journalSize() -> Int {
      (try? FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int) ?? 0
    }
    while journalSize() < 4096, Date() < deadline {
      usleep(2_000)
    }
    usleep(200_000)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    try #require(process.terminationReason == .uncaughtSignal)
    try #require(FileManager.default.fileExists(atPath: journal.path), "no hot journal left")
    return project
  }
}
