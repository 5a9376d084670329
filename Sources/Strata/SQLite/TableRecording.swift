#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// A set of tables by name (ASCII case folded, as SQLite compares them), or every table: what
/// a live query reads, or what a transaction may have changed.
package struct TableSet: Equatable, Sendable {
  package private(set) var names: Set<String> = []
  /// True when the set stands for every table (a schema change, a statement SQLite could not
  /// report): nothing may be assumed unchanged.
  package private(set) var isEverything = false

  package init() {}

  package static var everything: TableSet {
    var set = TableSet()
    set.isEverything = true
    return set
  }

  package var isEmpty: Bool { !isEverything && names.isEmpty }

  mutating func insert(_ name: String) {
    if !isEverything { names.insert(asciiLowercased(name)) }
  }

  package mutating func formUnion(_ other: TableSet) {
    if isEverything { return }
    if other.isEverything {
      self = .everything
    } else {
      names.formUnion(other.names)
    }
  }

  /// True when a change of `other` may change what this set reads.
  package func intersects(_ other: TableSet) -> Bool {
    if isEmpty || other.isEmpty { return false }
    return isEverything || other.isEverything || !names.isDisjoint(with: other.names)
  }
}

/// A savepoint statement, as SQLite's authorizer reports it when compiling it.
package struct SavepointStep: Equatable, Sendable {
  package enum Verb: Sendable { case begin, release, rollback }
  package let verb: Verb
  /// The savepoint's name, case folded.
  package let name: String
}

/// What the authorizer saw of the statements compiled while recording: the tables they read
/// (when asked), the tables they (or the triggers and foreign-key actions they fire) may
/// write, and the savepoint statement, if one was compiled. Any schema change (`CREATE`,
/// `DROP`, `ALTER`) counts as a write of every table.
package struct RecordedTables: Sendable {
  package var reads = TableSet()
  package var writes = TableSet()
  package var savepoint: SavepointStep?
  let recordsReads: Bool

  init(recordsReads: Bool) { self.recordsReads = recordsReads }

  /// Folds in one authorizer action.
  mutating func record(
    _ action: Int32,
    _ first: UnsafePointer<CChar>?,
    _ second: UnsafePointer<CChar>?
  ) {
    switch action {
    case SQLITE_READ:
      if recordsReads, let first { reads.insert(String(cString: first)) }
    case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
      if let first { writes.insert(String(cString: first)) }
    case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_VIEW,
      SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX,
      SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_VTABLE,
      SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW,
      SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER,
      SQLITE_DROP_VTABLE, SQLITE_ALTER_TABLE:
      writes = .everything
    case SQLITE_SAVEPOINT:
      guard let first, let second else { return }
      let verb: SavepointStep.Verb? =
        switch asciiLowercased(String(cString: first)) {
        case "begin": .begin
        case "release": .release
        case "rollback": .rollback
        default: nil
        }
      if let verb {
        savepoint = SavepointStep(verb: verb, name: asciiLowercased(String(cString: second)))
      }
    default:
      break
    }
  }
}

extension Connection {
  /// Starts recording the tables of each statement compiled from now on (including the ones
  /// SQLite compiles for a trigger, a view, a foreign-key action), until
  /// `stopRecordingTables()`. Reads are recorded only when asked: SQLite reports each column.
  func startRecordingTables(reads: Bool) {
    installedAuthorizer().tables = RecordedTables(recordsReads: reads)
  }

  /// What was recorded since `startRecordingTables(reads:)`.
  func stopRecordingTables() -> RecordedTables {
    defer { authorizer?.tables = nil }
    return authorizer?.tables ?? RecordedTables(recordsReads: false)
  }

  /// The tables `sql` (one statement) reads and writes now, compiled again to ask the
  /// authorizer; nil when it no longer compiles.
  func recordedTables(of sql: String) -> RecordedTables? {
    startRecordingTables(reads: true)
    let statement = try? prepare(sql)
    let recorded = stopRecordingTables()
    return statement == nil ? nil : recorded
  }

  /// Rows inserted, changed or deleted since the connection opened, triggers' included.
  var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
}

extension Statement {
  /// How many times SQLite compiled the statement again (after a schema change): its tables
  /// as recorded at the first compile may be out of date once this moves.
  var recompileCount: Int32 {
    sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
  }
}
