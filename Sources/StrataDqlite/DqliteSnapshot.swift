import Foundation
import Strata

/// The cluster's database as one local SQLite file: dqlite's DUMP (the database file and its
/// WAL, as the leader holds them), with the WAL folded into the file. What `backup` writes, and
/// the copy a migration is tried on before the cluster is touched.
extension DqliteDatabase {
  /// DUMP written into `folder` as one SQLite file named `name`; returns its URL.
  ///
  /// - Throws: `DqliteError` when the DUMP fails; `SQLiteError` when the dumped files are not
  ///   a database SQLite reads.
  package func snapshot(in folder: URL, named name: String = "snapshot.sqlite3") throws -> URL {
    let files = try dump()
    let file = folder.appendingPathComponent(name)
    let wal = folder.appendingPathComponent(name + "-wal")
    try Data(files.first?.bytes ?? []).write(to: file)
    if files.count > 1, !files[1].bytes.isEmpty {
      try Data(files[1].bytes).write(to: wal)
    }
    // Folds the WAL into the file and leaves none beside it: one file to copy or open.
    let connection = try ConnectionConfiguration().open(path: file.path, mode: .readWrite)
    try connection.execute("PRAGMA journal_mode = DELETE")
    guard try connection.scalar("PRAGMA quick_check") == .text("ok") else {
      throw SQLiteError(
        extendedCode: 11,
        message: "the DUMP of \(path) does not pass SQLite's quick_check"
      )
    }
    return file
  }

  /// Writes the database as one SQLite file at `destination`, which must not exist
  /// (`WholeNewFile`: a file there is always a whole backup, and never replaced another).
  ///
  /// - Throws: `DqliteRunError.missingDatabase` when the database holds nothing yet (never
  ///   migrated, or a mistyped name: a backup of it would be an empty file);
  ///   `WholeNewFileError` when `destination` exists or its folder cannot be written;
  ///   `DqliteError` or `SQLiteError` when the DUMP fails. The cluster is never changed.
  public func backup(to destination: URL) throws {
    try requireExisting()
    try WholeNewFile.write(to: destination) { file in
      _ = try snapshot(in: file.deletingLastPathComponent(), named: file.lastPathComponent)
    }
  }
}
