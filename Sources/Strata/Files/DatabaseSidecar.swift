import Foundation

/// A file that belongs to a database beside it, told by its name alone: SQLite's rollback
/// journal, write-ahead log and its shared-memory index (`-journal`, `-wal`, `-shm`),
/// strata's backups (`DatabaseBackup`), the damaged copies `restore --force` keeps, and the
/// hidden files strata writes while it builds a database (`.<name>.strata-…`).
///
/// Never a database itself, whether or not its database is there: SQLite takes a `-journal`
/// or `-wal` beside a database for the rest of a transaction to play back, so a database made
/// in one would be played into the other at its next open, and a journal whose database was
/// deleted is still the journal of the next database made at that name.
package struct DatabaseSidecar: Equatable, Sendable {
  package enum Kind: String, Sendable, CaseIterable {
    case rollbackJournal
    case writeAheadLog
    case sharedMemory
    case backup
    case damagedCopy
    case workFile
  }

  package let kind: Kind
  /// The name of the database it belongs to, in the same folder.
  package let database: String

  /// The sidecar a file named `name` (a last path component) is, or nil.
  package init?(fileName name: String) {
    for (suffix, kind) in Self.sqliteSuffixes where name.hasSuffix(suffix) {
      let database = String(name.dropLast(suffix.count))
      guard !database.isEmpty, database != "." else { continue }
      self.init(kind: kind, database: database)
      return
    }
    if let found = Self.backup(name) ?? Self.damagedCopy(name) ?? Self.workFile(name) {
      self = found
      return
    }
    return nil
  }

  private init(kind: Kind, database: String) {
    self.kind = kind
    self.database = database
  }

  /// `acme.db's rollback journal`: what the file is, in words.
  package var role: String {
    switch kind {
    case .rollbackJournal: "\(database)'s rollback journal"
    case .writeAheadLog: "\(database)'s write-ahead log"
    case .sharedMemory: "\(database)'s shared-memory index"
    case .backup: "a backup of \(database)"
    case .damagedCopy: "the damaged copy of \(database) that a restore kept"
    case .workFile: "a file strata writes while it builds \(database)"
    }
  }

  private static let sqliteSuffixes: [(String, Kind)] = [
    ("-journal", .rollbackJournal), ("-wal", .writeAheadLog), ("-shm", .sharedMemory),
  ]

  /// `<database>.backup-<UTC time>-v<version>.backup`, as `DatabaseBackup` names them.
  private static func backup(_ name: String) -> DatabaseSidecar? {
    guard name.hasSuffix(".backup") else { return nil }
    let file = URL(fileURLWithPath: "/" + name)
    for database in databaseNames(in: name, before: ".backup-")
    where DatabaseBackup(file, of: URL(fileURLWithPath: "/" + database)) != nil {
      return DatabaseSidecar(kind: .backup, database: database)
    }
    return nil
  }

  /// `<database>.damaged-<UTC time>`, as a forced restore names the copy it keeps.
  private static func damagedCopy(_ name: String) -> DatabaseSidecar? {
    let marker = ".damaged-"
    let stampLength = DatabaseBackup.stampLength
    guard name.utf8.count > marker.utf8.count + stampLength else { return nil }
    let stamp = String(decoding: name.utf8.suffix(stampLength), as: UTF8.self)
    let head = String(decoding: name.utf8.dropLast(stampLength), as: UTF8.self)
    guard head.hasSuffix(marker), DatabaseBackup.date(stamp) != nil else { return nil }
    let database = String(head.dropLast(marker.count))
    return database.isEmpty ? nil : DatabaseSidecar(kind: .damagedCopy, database: database)
  }

  /// `.<database>.strata-<anything>`: a database or template being built, its build lock, a
  /// schema file being written.
  private static func workFile(_ name: String) -> DatabaseSidecar? {
    guard name.hasPrefix("."), let last = databaseNames(in: name, before: ".strata-").last
    else { return nil }
    let database = String(last.dropFirst())
    guard !database.isEmpty, name.utf8.count > last.utf8.count + ".strata-".utf8.count
    else { return nil }
    return DatabaseSidecar(kind: .workFile, database: database)
  }

  /// Each non-empty start of `name` that `marker` follows, shortest first.
  private static func databaseNames(in name: String, before marker: String) -> [String] {
    var names: [String] = []
    var searched = name.startIndex
    while let found = name.range(of: marker, range: searched..<name.endIndex) {
      if found.lowerBound > name.startIndex { names.append(String(name[..<found.lowerBound])) }
      searched = name.index(after: found.lowerBound)
    }
    return names
  }
}
