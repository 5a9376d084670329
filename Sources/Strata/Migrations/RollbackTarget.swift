/// How far `Migrator.rollback` goes back: a number of applied migrations, or down to a version.
/// One value, so that a caller cannot ask for both at once.
package enum RollbackTarget: Hashable, Sendable {
  /// The newest `count` applied migrations (0 reverts nothing).
  case steps(Int)
  /// Every applied migration above `version` (`.zero` reverts them all).
  case version(MigrationVersion)
}
