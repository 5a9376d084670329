import Foundation

/// What `PRAGMA foreign_key_check` found in the database before the current step of a run.
///
/// Unknown (nil) at the start of a run: finding out scans every child table, so it is only
/// done when a step's check before commit finds something. Then the step is rolled back, the
/// database as it was is checked, and the step runs again, blamed only for what it added.
/// After a checked step, what it left is the next step's "before".
final class ForeignKeyBaseline {
  var before: [ForeignKeyViolation: Int]?
  /// Violations that were there before the run and that its steps left alone (not blamed).
  var kept: [ForeignKeyViolation] = []
  var keptCount = 0
}

/// A step's check found violations while what was there before is unknown.
struct ForeignKeyBaselineNeeded: Error {}

extension Migrator {
  // MARK: - Foreign keys

  /// Foreign keys off before `BEGIN` (inside a transaction the pragma is a no-op), restored
  /// after, on the same connection; so a table rebuild's `DROP TABLE` cannot cascade.
  static func withForeignKeysDeferred<T>(
    _ connection: Connection,
    _ body: () throws -> T
  ) throws
    -> T
  {
    let wasOn = try connection.scalar("PRAGMA foreign_keys")?.integerValue == 1
    guard wasOn, connection.isAutocommit else { return try body() }
    try connection.execute("PRAGMA foreign_keys = OFF")
    defer {
      // A `transaction:false` migration that failed after its own BEGIN leaves that transaction
      // open, and inside it the pragma is a no-op: end it (as closing the connection would).
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      try? connection.execute("PRAGMA foreign_keys = ON")
    }
    return try body()
  }

  /// Runs one step (its own transaction, or a whole single-transaction run); when its check
  /// needs to know what was there before, it learns that after the rollback and runs it again.
  static func withForeignKeyBaseline<T>(
    _ connection: Connection,
    _ baseline: ForeignKeyBaseline,
    _ step: () throws -> T
  ) throws -> T {
    do {
      return try step()
    } catch is ForeignKeyBaselineNeeded {
      baseline.before = try foreignKeyViolations(connection)
      return try step()
    }
  }

  /// Every violation `PRAGMA foreign_key_check` reports, counted.
  static func foreignKeyViolations(_ connection: Connection) throws -> [ForeignKeyViolation: Int] {
    var found: [ForeignKeyViolation: Int] = [:]
    for row in try connection.rows("PRAGMA foreign_key_check") {
      let violation = ForeignKeyViolation(
        table: row[0].textValue ?? "",
        rowid: row[1].integerValue,
        parent: row[2].textValue ?? ""
      )
      found[violation, default: 0] += 1
    }
    return found
  }

  /// Fails the step when it leaves a violation that was not there before it.
  static func checkForeignKeys(
    _ connection: Connection,
    migration: Migration,
    file: String,
    isRollback: Bool,
    baseline: ForeignKeyBaseline
  ) throws {
    let found = try foreignKeyViolations(connection)
    guard !found.isEmpty else {
      baseline.before = [:]
      baseline.kept = []
      baseline.keptCount = 0
      return
    }
    guard let before = baseline.before else { throw ForeignKeyBaselineNeeded() }
    var fresh: [ForeignKeyViolation] = []
    var kept: [ForeignKeyViolation] = []
    for (violation, count) in found {
      let old = before[violation] ?? 0
      if count > old { fresh += Array(repeating: violation, count: count - old) }
      kept += Array(repeating: violation, count: min(count, old))
    }
    let order = { (a: ForeignKeyViolation, b: ForeignKeyViolation) in
      (a.table, a.rowid ?? 0, a.parent) < (b.table, b.rowid ?? 0, b.parent)
    }
    guard fresh.isEmpty else {
      throw MigrationError.foreignKeyViolation(
        version: migration.version,
        file: file,
        violations: Array(fresh.sorted(by: order).prefix(100)),
        preexisting: kept.count,
        isRollback: isRollback
      )
    }
    baseline.before = found
    baseline.keptCount = kept.count
    baseline.kept = Array(kept.sorted(by: order).prefix(100))
  }
}
