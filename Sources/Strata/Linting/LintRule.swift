/// A rule of `MigrationLinter`, by its stable kebab-case name: the name findings carry and a
/// `-- strata:allow NAME` line disables for the statement after it (docs/lint.md).
package enum LintRule: String, CaseIterable, Hashable, Sendable, Codable {
  /// `DROP TABLE` of a table that exists before the migration and is not rebuilt by it.
  case dropTable = "drop-table"
  /// `ALTER TABLE … DROP COLUMN`.
  case dropColumn = "drop-column"
  /// A new `NOT NULL` column without a non-NULL default (by `ADD COLUMN` or a rebuild).
  case notNullWithoutDefault = "not-null-without-default"
  /// `DROP TABLE` or `RENAME TO` of a table other tables' foreign keys reference, where
  /// foreign keys are not handled (docs/decisions.md, Lint).
  case rebuildReferencedTable = "rebuild-referenced-table"
  /// `INSERT OR REPLACE`, `REPLACE INTO`, `UPDATE OR REPLACE`.
  case insertOrReplace = "insert-or-replace"
  /// `INSERT`, `UPDATE` or `DELETE` of an existing table in a migration that creates, drops or
  /// alters a table.
  case dataWithSchemaChange = "data-with-schema-change"
  /// A foreign key whose child columns no index starts with.
  case unindexedForeignKey = "unindexed-foreign-key"
  /// A statement that cannot run inside the transaction strata runs the part in.
  case needsNoTransaction = "needs-no-transaction"
  /// A `-- strata:allow` line naming a rule that does not exist (never silently ignored).
  case unknownRule = "unknown-rule"

  /// What to do about a finding of this rule.
  package var help: String {
    switch self {
    case .dropTable:
      return "Make sure nothing reads the table any more and its rows are kept elsewhere if "
        + "needed; if the drop is meant, put '-- strata:allow drop-table' on the line before it."
    case .dropColumn:
      return "Make sure no code, view, index or trigger uses the column and its values are not "
        + "needed; if meant, put '-- strata:allow drop-column' on the line before it."
    case .notNullWithoutDefault:
      return "Give the column a non-NULL DEFAULT (or add it nullable, fill it, then rebuild "
        + "the table with NOT NULL); SQLite refuses it on a table that has rows."
    case .rebuildReferencedTable:
      return "Run the rebuild in a part strata wraps in its transaction (foreign keys off, "
        + "foreign_key_check before commit), create the new table, copy, drop the old one and "
        + "rename the new one in (never rename the old table away); "
        + "'-- strata:allow rebuild-referenced-table' if it is meant."
    case .insertOrReplace:
      return "Use an UPSERT (INSERT … ON CONFLICT (…) DO UPDATE SET …), which updates the row in "
        + "place; REPLACE deletes the old row first, firing ON DELETE CASCADE and delete triggers."
    case .dataWithSchemaChange:
      return "Move the data change into a migration of its own, so a failure or a rollback of "
        + "one does not undo or block the other; '-- strata:allow data-with-schema-change' if "
        + "it belongs here."
    case .unindexedForeignKey:
      return "Create an index that starts with the foreign key's columns (CREATE INDEX … ON "
        + "child(column)); without one every delete or update of a parent row scans the child "
        + "table."
    case .needsNoTransaction:
      return "Move the statement into a part marked transaction:false (a migration of its "
        + "own), or remove it: strata runs this part inside a transaction."
    case .unknownRule:
      return "Name one of the rules: "
        + LintRule.allowable.map(\.rawValue).joined(separator: ", ") + "."
    }
  }

  /// The rules a `-- strata:allow` line may name.
  package static var allowable: [LintRule] { allCases.filter { $0 != .unknownRule } }
}
