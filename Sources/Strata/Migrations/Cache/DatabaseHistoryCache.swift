import Foundation

/// A database's migration history kept in one file with a snapshot of the database's files
/// (`FolderSnapshot`), so that a run that only reports (`status`) opens nothing while the
/// database is as it was: SQLite parses a database's whole schema before its first read, which
/// on a database of a thousand tables is most of what reading its history costs.
///
/// The key is the database file, its `-wal` and its `-journal` (each there or not; device,
/// inode, size, mode, modification and change time to the nanosecond), the build of strata and
/// the SQLite library. Any write to the database moves a time of one of them; the change time
/// no user can set back. As with the folder's copy, one is kept only of a database whose files
/// had been still for `FolderSnapshot.settlingSeconds` before it was read and are the same
/// after the read, and never of one that is a link, not a regular file, not on a local disk,
/// or records another tool's history. Anything wrong with the kept file is a miss.
package struct DatabaseHistoryCache: Sendable {
  /// Where the copy is kept; its folder is made when missing.
  package let file: URL
  /// The build of strata that reads the history; a copy made by another is a miss.
  package let identity: String

  package init(file: URL, identity: String) {
    self.file = file
    self.identity = identity
  }

  /// The history of the database at `path`, from the kept copy while its files are unchanged,
  /// else as `read` reads it (with the repeatable migrations: `RecordedHistory.read(_:
  /// includingRepeatables: true)`), kept for the next run when it can be.
  ///
  /// - Throws: what `read` throws; nothing is kept of a database that does not read.
  package func history(
    ofDatabaseAt path: String,
    read: () throws -> RecordedHistory
  ) throws -> (RecordedHistory, MigrationFolderCache.Outcome) {
    let key = [identity, path, "sqlite " + Connection.libraryVersion].joined(separator: "\n")
    let files = [path, path + "-wal", path + "-journal"]
    let before = FolderSnapshot.take(files: files)
    if let before, before.entries[0].exists, let bytes = CacheFile.read(file),
      let kept = HistoryCacheCodec.decode(bytes, key: key, snapshot: before)
    {
      return (kept, .used)
    }
    let history = try read()
    guard let before, before.entries[0].exists, before.isSettled, history.otherTools.isEmpty,
      FolderSnapshot.take(files: files)?.entries == before.entries,
      CacheFile.write(HistoryCacheCodec.encode(history, key: key, snapshot: before), to: file)
    else { return (history, .read) }
    return (history, .kept)
  }
}

/// The bytes of a `DatabaseHistoryCache` copy (a `CacheFile`): the key, the database files'
/// snapshot, strata's history rows and the repeatable migrations applied.
enum HistoryCacheCodec {
  /// Changed whenever the layout or anything read into it changes.
  static let header = Array("strata database history cache 2\n".utf8)

  static func encode(
    _ history: RecordedHistory,
    key: String,
    snapshot: FolderSnapshot
  )
    -> [UInt8]
  {
    var out = CacheFile.Writer(header: header)
    out.string(key)
    out.snapshot(snapshot)
    out.integer(UInt64(history.rows.count))
    for row in history.rows {
      out.string(row.version.text)
      out.string(row.version.ordering.rawValue)
      out.string(row.name)
      out.string(row.checksum)
      out.string(row.appliedAt)
      out.integer(UInt64(bitPattern: row.durationMs))
    }
    out.integer(UInt64(history.repeatables.count))
    for repeatable in history.repeatables {
      out.string(repeatable.name)
      out.string(repeatable.checksum)
      out.string(repeatable.appliedAt)
      out.integer(UInt64(bitPattern: repeatable.durationMs))
    }
    return out.sealed()
  }

  /// The history kept in `bytes`, or nil unless the copy is whole and was made with `key` of
  /// database files whose snapshot was `snapshot`.
  static func decode(_ bytes: [UInt8], key: String, snapshot: FolderSnapshot) -> RecordedHistory? {
    guard var input = CacheFile.Reader(bytes, header: header), input.string(equals: key),
      input.matches(snapshot), let count = input.integer(), count <= UInt64(input.remaining)
    else { return nil }
    var rows: [AppliedMigration] = []
    rows.reserveCapacity(Int(count))
    for _ in 0..<count {
      guard let text = input.string(), let orderingName = input.string(),
        let ordering = MigrationVersion.Ordering(rawValue: orderingName),
        let version = try? MigrationVersion(text: text, ordering: ordering),
        let name = input.string(), let checksum = input.string(),
        let appliedAt = input.string(), let duration = input.integer()
      else { return nil }
      rows.append(
        AppliedMigration(
          version: version,
          name: name,
          checksum: checksum,
          appliedAt: appliedAt,
          durationMs: Int64(bitPattern: duration)
        )
      )
    }
    guard let repeatableCount = input.integer(), repeatableCount <= UInt64(input.remaining)
    else { return nil }
    var repeatables: [AppliedRepeatable] = []
    for _ in 0..<repeatableCount {
      guard let name = input.string(), let checksum = input.string(),
        let appliedAt = input.string(), let duration = input.integer()
      else { return nil }
      repeatables.append(
        AppliedRepeatable(
          name: name,
          checksum: checksum,
          appliedAt: appliedAt,
          durationMs: Int64(bitPattern: duration)
        )
      )
    }
    guard input.remaining == 0 else { return nil }
    return RecordedHistory(rows: rows, otherTools: [], repeatables: repeatables)
  }
}
