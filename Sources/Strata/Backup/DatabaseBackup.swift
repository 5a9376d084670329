import Foundation

/// A copy of a database that strata wrote beside it before a migrate run:
/// `<database file name>.backup-<UTC time>-v<version>.backup`, such as
/// `app.sqlite3.backup-20261201T053012.345Z-v3.backup`, so that the newest sorts last and the
/// version it holds shows in its name.
package struct DatabaseBackup: Hashable, Sendable, Codable {
  /// The backup file.
  package let url: URL
  /// The database's version when the backup was written, as its name says.
  package let version: String
  /// When it was written (UTC, to the millisecond), as its name says.
  package let createdAt: Date

  /// `<database>.backup-`: the start of every backup's name.
  static func prefix(of database: URL) -> String {
    database.lastPathComponent + ".backup-"
  }

  /// Not the database's own extension: a fleet pattern such as `*.sqlite3` must not take a
  /// backup for a database to migrate.
  private static let suffix = ".backup"
  /// `20261201T053012.345Z`.
  static let stampLength = 20

  /// The name of a backup of `database` at `version`, written at `date`.
  static func url(of database: URL, version: MigrationVersion, at date: Date) -> URL {
    let stamp = utcFileStamp(date)
    return database.deletingLastPathComponent().appendingPathComponent(
      prefix(of: database) + stamp + "-v" + version.text + suffix
    )
  }

  /// The backup a file is, when its name is one strata gives a backup of `database`.
  init?(_ url: URL, of database: URL) {
    let name = url.lastPathComponent
    let prefix = Self.prefix(of: database)
    guard name.hasPrefix(prefix), name.hasSuffix(Self.suffix) else { return nil }
    let rest = name.dropFirst(prefix.count).dropLast(Self.suffix.count)
    guard rest.count > Self.stampLength + 2 else { return nil }
    let stamp = String(rest.prefix(Self.stampLength))
    let tail = rest.dropFirst(Self.stampLength)
    guard tail.hasPrefix("-v"), let date = Self.date(stamp) else { return nil }
    self.url = url
    self.version = String(tail.dropFirst(2))
    self.createdAt = date
  }

  /// The date in a name's `20261201T053012.345Z` (also a damaged copy's, `DatabaseSidecar`).
  static func date(_ stamp: String) -> Date? {
    let digits = Array(stamp.utf8)
    guard digits.count == stampLength, digits[8] == UInt8(ascii: "T"),
      digits[15] == UInt8(ascii: "."), digits[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
      let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
      let millis = number(16..<19)
    else { return nil }
    guard let utc = TimeZone(identifier: "UTC") else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    let components = DateComponents(
      year: year,
      month: month,
      day: day,
      hour: hour,
      minute: minute,
      second: second
    )
    guard let date = calendar.date(from: components) else { return nil }
    return date.addingTimeInterval(Double(millis) / 1000)
  }

  /// The backups of `database` beside it, newest first: only files named as strata names them.
  ///
  /// - Throws: `BackupError.folderNotListed` when the database's folder does not exist, is not
  ///   a folder, or cannot be listed.
  package static func list(of database: URL) throws -> [DatabaseBackup] {
    let folder = database.deletingLastPathComponent()
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      let reason =
        switch pathStatus(atPath: folder.path) {
        case .missing: "does not exist"
        case .directory: "cannot be listed (check its permissions)"
        case .regular, .special: "is not a folder"
        case .unreachable(let why): "cannot be reached (\(why))"
        }
      throw BackupError.folderNotListed(
        database: database.path,
        folder: folder.path,
        reason: reason
      )
    }
    return names.compactMap { DatabaseBackup(folder.appendingPathComponent($0), of: database) }
      .sorted { $0.url.lastPathComponent > $1.url.lastPathComponent }
  }

  /// Copies the database `connection` has open next to it, page for page through SQLite's
  /// backup API (what the connection sees, so a WAL database's pages not yet checkpointed
  /// are in the copy), then deletes the backups of it beyond the newest `policy.keep`.
  ///
  /// - Throws: `BackupError.notWritten` (nothing of the database changed) when the folder
  ///   cannot be written, the disk is full, or SQLite fails.
  static func write(
    _ connection: Connection,
    version: MigrationVersion,
    policy: BackupPolicy,
    now: Date = Date()
  ) throws -> DatabaseBackup {
    let database = URL(fileURLWithPath: connection.path)
    var date = now
    var url = Self.url(of: database, version: version, at: date)
    while databaseFileKind(at: url.path) != .missing {
      date += 0.001
      url = Self.url(of: database, version: version, at: date)
    }
    func failed(_ reason: String) -> BackupError {
      .notWritten(database: database.path, backup: url.path, version: version, reason: reason)
    }
    guard connection.path != ":memory:", !connection.path.isEmpty else {
      throw failed("the database is in memory, not in a file")
    }
    do {
      try checkWritableFolder(for: url)
    } catch {
      throw failed("its folder \(url.deletingLastPathComponent().path) cannot be written")
    }
    do {
      let copy = try ConnectionConfiguration.none.open(path: url.path, foreignKeys: false)
      try connection.copyPages(into: copy)
      // A copy of a WAL database is a WAL database: made a plain one, so that reading or
      // restoring it leaves no `-wal` or `-shm` beside it.
      _ = try copy.scalar("PRAGMA journal_mode = DELETE")
    } catch let error as SQLiteError {
      try? FileManager.default.removeItem(at: url)
      throw failed(error.isFull ? "the disk is full" : error.message)
    }
    guard let backup = DatabaseBackup(url, of: database) else {
      throw failed("its name cannot be read back")
    }
    for old in ((try? list(of: database)) ?? []).dropFirst(policy.keep) {
      try? FileManager.default.removeItem(at: old.url)
    }
    return backup
  }
}
