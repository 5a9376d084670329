import Foundation
import Testing

@testable import Strata

/// The names of files that belong to a database beside them, and names that only look close.
@Suite struct DatabaseSidecarTests {
  @Test(arguments: [
    ("acme.db-journal", "acme.db's rollback journal"),
    ("acme.db-wal", "acme.db's write-ahead log"),
    ("acme.db-shm", "acme.db's shared-memory index"),
    ("acme-wal-wal", "acme-wal's write-ahead log"),
    ("acme.db.backup-20261201T053012.345Z-v3.backup", "a backup of acme.db"),
    ("a.backup-.backup-20261201T053012.345Z-v1.2.backup", "a backup of a.backup-"),
    ("acme.db.damaged-20261201T053012.345Z", "the damaged copy of acme.db that a restore kept"),
    (".acme.db.strata-lock", "a file strata writes while it builds acme.db"),
    (".acme.db.strata-0A1B.tmp", "a file strata writes while it builds acme.db"),
    // On a case-insensitive volume these are acme.db's own.
    ("acme.db-WAL", "acme.db's write-ahead log"),
    ("acme.db-Journal", "acme.db's rollback journal"),
    ("acme.db-SHM", "acme.db's shared-memory index"),
    // U+0600 joins the '-' into one character with it: the bytes still end in -wal.
    ("x\u{0600}-wal", "x\u{0600}'s write-ahead log"),
    ("x\u{0600}-journal", "x\u{0600}'s rollback journal"),
    ("acme.db-mj5F3A2B9C1", "the super-journal of a transaction acme.db took part in"),
    ("acme.db-mjabc", "the super-journal of a transaction acme.db took part in"),
  ])
  func aSidecarIsNamedWithItsDatabase(_ name: String, _ role: String) {
    #expect(DatabaseSidecar(fileName: name)?.role == role)
  }

  /// A strata backup's name is the one `DatabaseBackup` writes, read back.
  @Test func aBackupStrataNamesIsASidecar() {
    let database = URL(fileURLWithPath: "/tmp/t/app.sqlite3")
    let url = DatabaseBackup.url(of: database, version: MigrationVersion(integer: 7), at: Date())
    let sidecar = DatabaseSidecar(fileName: url.lastPathComponent)
    #expect(sidecar?.kind == .backup)
    #expect(sidecar?.database == "app.sqlite3")
  }

  @Test(arguments: [
    "acme.db", "-journal", "-wal", ".-wal", "notes.backup", "x.backup-today.backup",
    "x.damaged-foo", "x.damaged-2026-12-01", ".strata-lock", "acme.strata-lock",
    "journal", "acme.db-journal.bak", "my-wal.db", "db-journal.sqlite3", "x-walx.db",
    "acme.db-mj", "acme.db-mjxyz", "-mj12",
  ])
  func otherNamesAreDatabases(_ name: String) {
    #expect(DatabaseSidecar(fileName: name) == nil)
  }
}
