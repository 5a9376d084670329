/// `MigrateOptions.backup`: copy the database next to itself before the first migration of a
/// run, and keep the newest `keep` copies of it.
package struct BackupPolicy: Hashable, Sendable {
  /// How many backups of the database to keep, the one just written included (at least 1).
  package var keep: Int

  /// The number of backups kept unless told otherwise.
  package static let defaultKeep = 5

  /// A policy keeping the newest `keep` backups (at least 1).
  package init(keep: Int = BackupPolicy.defaultKeep) {
    self.keep = max(1, keep)
  }
}
