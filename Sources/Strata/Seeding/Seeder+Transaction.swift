import Foundation

// The settings a run changes for its transaction, and puts back whichever way it ends.
extension Seeder {
  /// Rolls back; a failure here never hides the error that caused it.
  func rollBack(_ ownTransaction: Bool) {
    if ownTransaction {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
    } else {
      try? connection.execute("ROLLBACK TO strata_seed")
      try? connection.execute("RELEASE strata_seed")
    }
  }

  /// Defers foreign keys for the run, so cycles load; returns how to put the setting back.
  /// COMMIT and ROLLBACK turn it off, but releasing or rolling back to a savepoint does not,
  /// so inside a caller's transaction it would otherwise stay on after the run. A caller that
  /// already deferred them is left alone: turning the pragma off also forgets the violations
  /// it deferred.
  func deferForeignKeys() throws -> () -> Void {
    guard try connection.scalar("PRAGMA defer_foreign_keys")?.integerValue != 1 else {
      return {}
    }
    try connection.execute("PRAGMA defer_foreign_keys = ON")
    let connection = self.connection
    return { try? connection.execute("PRAGMA defer_foreign_keys = OFF") }
  }

  /// A large page cache for the load (SQLite's default is 2 MiB); returns how to restore it.
  func enlargeCache(kibibytes: Int) throws -> () -> Void {
    guard let current = try connection.scalar("PRAGMA cache_size")?.integerValue else {
      return {}
    }
    let pageSize = try connection.scalar("PRAGMA page_size")?.integerValue ?? 4096
    let currentKiB = current < 0 ? -current : current * pageSize / 1024
    guard Int64(kibibytes) > currentKiB else { return {} }
    try connection.execute("PRAGMA cache_size = -\(kibibytes)")
    let connection = self.connection
    return { try? connection.execute("PRAGMA cache_size = \(current)") }
  }
}
