/// The statements a `Database` ran while something watches: during a write transaction that
/// live queries observe, the tables it may have changed; during a live query's fetch, the tables
/// it read.
///
/// It keeps the statements themselves and asks them for their tables at the end, after they
/// ran: SQLite compiles a cached statement again after a schema change (a new trigger may
/// write another table), and its tables are then recorded again. Savepoints nest levels: a
/// `ROLLBACK TO` forgets what ran since its savepoint, a `RELEASE` keeps it.
final class TableTracking {
  enum Purpose { case writes, reads }

  private struct Level {
    /// The savepoint that opened the level; nil for the transaction itself.
    let savepoint: String?
    var statements: [ObjectIdentifier: CachedStatement] = [:]
    /// Tables of statements that are not cached (a script's).
    var tables = TableSet()
  }

  let purpose: Purpose
  private var levels = [Level(savepoint: nil)]
  /// `Connection.totalChanges` at the start: rows changed by a path that bypassed the
  /// tracking (no statement tracked) make the whole transaction count as a change of every
  /// table, never as no change.
  private let changesAtStart: Int

  init(_ purpose: Purpose, changesAtStart: Int) {
    self.purpose = purpose
    self.changesAtStart = changesAtStart
  }

  /// A statement about to run.
  func use(_ statement: CachedStatement) {
    levels[levels.count - 1].statements[ObjectIdentifier(statement)] = statement
  }

  /// Tables of statements run outside the cache (a script).
  func add(_ tables: TableSet) {
    levels[levels.count - 1].tables.formUnion(tables)
  }

  /// A savepoint statement that ran.
  func ran(_ step: SavepointStep) {
    switch step.verb {
    case .begin:
      levels.append(Level(savepoint: step.name))
    case .rollback:
      // The savepoint stays open, empty again.
      guard let index = levels.lastIndex(where: { $0.savepoint == step.name }) else { return }
      levels.removeSubrange((index + 1)...)
      levels[index] = Level(savepoint: step.name)
    case .release:
      guard let index = levels.lastIndex(where: { $0.savepoint == step.name }), index > 0
      else { return }
      for level in levels[index...] {
        levels[index - 1].statements.merge(level.statements) { first, _ in first }
        levels[index - 1].tables.formUnion(level.tables)
      }
      levels.removeSubrange(index...)
    }
  }

  /// The tables the tracked statements wrote (or read), each statement's recorded again on
  /// `connection` when SQLite compiled it again since.
  func tables(on connection: Connection) -> TableSet {
    var result = TableSet()
    for level in levels {
      result.formUnion(level.tables)
      for statement in level.statements.values {
        result.formUnion(tables(of: statement, on: connection))
      }
    }
    if purpose == .writes, result.isEmpty, connection.totalChanges != changesAtStart {
      return .everything
    }
    return result
  }

  private func tables(of entry: CachedStatement, on connection: Connection) -> TableSet {
    let current = entry.statement.recompileCount
    let stale = entry.tablesRecordedAt != current
    if stale || (purpose == .reads && entry.reads == nil) {
      guard let recorded = connection.recordedTables(of: entry.statement.sql) else {
        return .everything
      }
      entry.writes = recorded.writes
      entry.reads = recorded.reads
      entry.tablesRecordedAt = current
      // What the statement wrote before SQLite compiled it again, with the old schema, counts
      // too: a schema change is a change of every table already.
      if stale, purpose == .writes { return .everything }
    }
    return purpose == .writes ? entry.writes : entry.reads ?? .everything
  }
}

extension TableTracking {
  /// A script ran (its statements compiled outside the cache, `recorded` their tables).
  func scriptRan(_ recorded: RecordedTables) {
    add(purpose == .writes ? recorded.writes : .everything)
  }
}

extension Database {
  /// At `BEGIN`: tracks what the transaction writes while a live query is registered.
  func startTrackingWrites() {
    tracking =
      observers.isActive ? TableTracking(.writes, changesAtStart: connection.totalChanges) : nil
  }

  /// After a `COMMIT` that changed `tables`: tells the live queries. After a schema change the
  /// cached statements are dropped, so that a live query's `SELECT *` is compiled again with
  /// the new columns (a cached statement keeps the columns it was first compiled with).
  func committed(_ tables: TableSet) {
    if tables.isEverything { statements.removeAll() }
    observers.committed(tables)
  }

  /// Runs a live query's `fetch`, returning its value and the tables it read.
  func fetchTrackingReads<T>(_ fetch: (Database) throws -> T) throws -> (T, TableSet) {
    let outer = tracking
    let reads = TableTracking(.reads, changesAtStart: 0)
    tracking = reads
    defer { tracking = outer }
    let value = try fetch(self)
    return (value, reads.tables(on: connection))
  }
}
