import Foundation

/// A file that belongs to a database beside it, told by its name alone: SQLite's rollback
/// journal, write-ahead log and its shared-memory index (`-journal`, `-wal`, `-shm`, in any
/// ASCII case), the super-journal of a transaction over several databases (`-mj<hex>`),
/// strata's backups (`DatabaseBackup`), the damaged copies a forced restore keeps, and the
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
    case superJournal
    case backup
    case damagedCopy
    case workFile
  }

  package let kind: Kind
  /// The name of the database it belongs to, in the same folder.
  package let database: String

  /// The sidecar a file named `name` (a last path component) is, or nil.
  ///
  /// SQLite's suffixes are compared as bytes (a character such as U+0600 that joins the `-`
  /// to itself must not hide one) and without regard to ASCII case (on a case-insensitive
  /// volume, a Mac's or Windows' default, `acme.db-WAL` is acme.db's log).
  package init?(fileName name: String) {
    let bytes = Array(name.utf8)
    for (suffix, kind) in Self.sqliteSuffixes {
      guard let database = Self.name(bytes, endingWith: suffix) else { continue }
      self.init(kind: kind, database: database)
      return
    }
    if let database = Self.superJournalDatabase(bytes) {
      self.init(kind: .superJournal, database: database)
      return
    }
    if let found = Self.backup(name) ?? Self.damagedCopy(name) ?? Self.workFile(name) {
      self = found
      return
    }
    return nil
  }

  /// What comes before `suffix` (ASCII, matched without regard to case) at the end of
  /// `bytes`; nil when `bytes` does not end so, or nothing names a database before it.
  private static func name(_ bytes: [UInt8], endingWith suffix: String) -> String? {
    let tail = Array(suffix.utf8)
    guard bytes.count > tail.count,
      zip(bytes.suffix(tail.count), tail).allSatisfy({ lowercased($0) == $1 })
    else { return nil }
    let database = String(decoding: bytes.dropLast(tail.count), as: UTF8.self)
    return database == "." ? nil : database
  }

  /// `<database>-mj<hex digits>`: the super-journal SQLite writes beside the main database
  /// for a transaction over several (attached) databases; whether it exists decides whether a
  /// child's hot journal is rolled back, so one must never be made or removed by hand.
  private static func superJournalDatabase(_ bytes: [UInt8]) -> String? {
    let digits = bytes.reversed().prefix { isHexDigit($0) }.count
    guard (1...16).contains(digits), bytes.count > digits + 3 else { return nil }
    return name(Array(bytes.dropLast(digits)), endingWith: "-mj")
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }

  private init(kind: Kind, database: String) {
    self.kind = kind
    self.database = database
  }

  /// A file SQLite itself writes and reads beside its database (a journal, a log, its index).
  package var isSQLiteFile: Bool {
    switch kind {
    case .rollbackJournal, .writeAheadLog, .sharedMemory, .superJournal: true
    case .backup, .damagedCopy, .workFile: false
    }
  }

  /// `acme.db's rollback journal`: what the file is, in words.
  package var role: String {
    switch kind {
    case .rollbackJournal: "\(database)'s rollback journal"
    case .writeAheadLog: "\(database)'s write-ahead log"
    case .sharedMemory: "\(database)'s shared-memory index"
    case .superJournal: "the super-journal of a transaction \(database) took part in"
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
