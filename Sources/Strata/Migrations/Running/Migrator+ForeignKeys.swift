import Foundation

/// What `PRAGMA foreign_key_check` found in the database before the current step of a run.
///
/// Unknown (nil) at the start of a run: finding out scans every child table, so it is only
/// done when a step's check before commit finds something. Then the step is rolled back, the
/// database as it was is checked, and the step runs again, blamed only for what it added.
/// After a checked step, what it left is the next step's "before".
final class ForeignKeyBaseline {
  var before: [ForeignKeyViolation: Int]?
  /// The child tables whose foreign keys SQLite could not check before the step (a
  /// mismatch the database already had, which the step is not blamed for).
  var mismatchedBefore: Set<String> = []
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
    _ connection: any SQLDatabase,
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
  /// `afterRollback` runs once the step is rolled back, before it runs again.
  static func withForeignKeyBaseline<T>(
    _ connection: any SQLDatabase,
    _ baseline: ForeignKeyBaseline,
    afterRollback: () throws -> Void = {},
    _ step: () throws -> T
  ) throws -> T {
    do {
      return try step()
    } catch is ForeignKeyBaselineNeeded {
      try afterRollback()
      let check = try ForeignKeyMismatch.check(connection)
      baseline.before = check.violations
      baseline.mismatchedBefore = check.mismatched
      return try step()
    }
  }

  /// Fails the step when it leaves a violation that was not there before it.
  static func checkForeignKeys(
    _ connection: any SQLDatabase,
    migration: Migration,
    file: String,
    isRollback: Bool,
    baseline: ForeignKeyBaseline
  ) throws {
    let check = try ForeignKeyMismatch.check(connection)
    let found = check.violations
    guard !found.isEmpty || !check.mismatched.isEmpty else {
      baseline.before = [:]
      baseline.mismatchedBefore = []
      baseline.kept = []
      baseline.keptCount = 0
      return
    }
    guard let before = baseline.before else { throw ForeignKeyBaselineNeeded() }
    if let table = check.mismatched.subtracting(baseline.mismatchedBefore).sorted().first {
      let mismatch = try ForeignKeyMismatch.describe(table: table, connection)
      let script = isRollback ? migration.down ?? migration.up : migration.up
      throw MigrationError.foreignKeyMismatch(
        version: migration.version,
        file: file,
        line: mismatch.line(in: script),
        table: mismatch.table,
        foreignKey: mismatch.foreignKey,
        reason: mismatch.reason,
        isRollback: isRollback
      )
    }
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
    baseline.mismatchedBefore = check.mismatched
    baseline.keptCount = kept.count
    baseline.kept = Array(kept.sorted(by: order).prefix(100))
  }
}
