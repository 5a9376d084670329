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
    "journal", "acme.db-journal.bak",
  ])
  func otherNamesAreDatabases(_ name: String) {
    #expect(DatabaseSidecar(fileName: name) == nil)
  }
}
