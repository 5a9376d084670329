import Foundation

/// What is at a database path before strata opens it.
public enum DatabaseFileKind: Equatable, Sendable {
  /// Nothing: opening would create a new database.
  case missing
  /// A directory: never a database, never written into.
  case directory
  /// An empty file (SQLite treats it as an empty database).
  case empty
  /// A file that starts with SQLite's header.
  case sqlite
  /// A file with other content: never overwritten.
  case notSQLite
}

/// The 16 bytes every SQLite database file starts with.
let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

/// Looks at `path` without opening it with SQLite.
public func databaseFileKind(at path: String) -> DatabaseFileKind {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
    return .missing
  }
  if isDirectory.boolValue { return .directory }
  guard let handle = FileHandle(forReadingAtPath: path) else { return .notSQLite }
  defer { try? handle.close() }
  let head = (try? handle.read(upToCount: 16)) ?? Data()
  if head.isEmpty { return .empty }
  return Array(head) == sqliteHeader ? .sqlite : .notSQLite
}

/// Whether the file at `path` is a database in WAL mode (its header's read and write format
/// versions, bytes 18 and 19, are 2).
public func isWALDatabase(at path: String) -> Bool {
  guard let handle = FileHandle(forReadingAtPath: path) else { return false }
  defer { try? handle.close() }
  guard let head = try? handle.read(upToCount: 20), head.count == 20 else { return false }
  return Array(head.prefix(16)) == sqliteHeader && head[18] == 2 && head[19] == 2
}
