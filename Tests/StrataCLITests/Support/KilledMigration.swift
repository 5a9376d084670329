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
    // Wait until the journal is hot, then kill. SQLite writes a journal's magic number only when
    // it syncs the journal, just before it first writes pages of the database file (a cache
    // spill or the commit); until then the header starts with zeros, the file still holds the
    // committed state, and SQLite does not take the journal for a hot one, so a kill at that
    // moment would test nothing. On a loaded machine that moment can last seconds.
    let magic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
    let deadline = Date().addingTimeInterval(60)
    func journalIsHot() -> Bool {
      guard let handle = FileHandle(forReadingAtPath: journal.path) else { return false }
      defer { try? handle.close() }
      return (try? handle.read(upToCount: magic.count)).map { [UInt8]($0) } == magic
    }
    while !journalIsHot(), Date() < deadline {
      usleep(2_000)
    }
    try #require(journalIsHot(), "the migration never wrote a hot journal")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    try #require(process.terminationReason == .uncaughtSignal)
    try #require(FileManager.default.fileExists(atPath: journal.path), "no hot journal left")
    return project
  }
}
