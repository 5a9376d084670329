/// The tables strata writes itself: user SQL must not change them. Named here, where the
/// fences over them are raised, for the fence (`SQLite/Authorizer.swift`) knows no table.
package let strataOwnTables: Set<String> = [History.table, "strata_seeds"]

/// Whether `name` is one of strata's own tables (ASCII case-insensitively, as SQLite compares).
package func isStrataOwnTable(_ name: String) -> Bool {
  strataOwnTables.contains(asciiLowercased(name))
}

/// The end of every refusal of a change to strata's tables.
let strataTableRule =
  "which is strata's own table: migrations and seeds may read strata's tables but never "
  + "change them"

extension ProtectedTables {
  /// strata's own tables, with what creates each (`strata_seeds` as the probe of a trigger's
  /// body needs it: its columns, not the seeder's whole definition).
  static let strata = ProtectedTables(
    [
      (History.table, History.createSQL),
      (
        "strata_seeds",
        "CREATE TABLE IF NOT EXISTS main.strata_seeds (file, checksum, table_name, mode, "
          + "rows_inserted, rows_updated, applied_at)"
      ),
    ],
    rule: strataTableRule
  )
}

extension FenceRules {
  /// strata's own tables (`strata_migrations`, `strata_seeds`, exactly those names): user SQL
  /// may read them but not write, drop, alter, rename, index or put a trigger on them, nor
  /// create an object that takes one of their names.
  package static let strataTables = FenceRules.protecting(.strata)
}

extension SQLiteError {
  /// The fence refused the statement because it changes one of strata's own tables.
  package var changesStrataTable: Bool {
    isRefusedByFence && message.hasSuffix(strataTableRule)
  }
}
