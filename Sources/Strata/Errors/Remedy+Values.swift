// The values some remedies carry (`Remedy.seedModes`, `Remedy.delimiter`): they sit with
// `Remedy`, below every folder whose errors name them. What each seed mode does (its rules)
// is the seeder's, in Seeding/SeedMode.swift.

/// How a seed file's rows meet the rows already in its table.
public enum SeedMode: String, Sendable, Codable, CaseIterable {
  /// Insert the rows whose key is absent; never touch existing rows (the default).
  case missing
  /// Insert absent rows; update the CSV's columns of existing rows (`ON CONFLICT … DO UPDATE`),
  /// leaving the other columns alone.
  case upsert
  /// Empty the table, then insert every row. Refused when another table's foreign key would
  /// cascade (or set NULL) on the delete, unless forced.
  case replace
  /// Plain inserts, no key needed: a row that collides with a UNIQUE constraint fails the run.
  case append
  /// Bundled reference data across app updates: the file's new version inserts its new rows,
  /// updates the rows whose values changed and deletes the rows that left it, but never
  /// touches a row the user changed nor brings back one the user deleted (the ledger
  /// `strata_seed_rows` remembers which keys the file put in and what it wrote). Needs a key;
  /// a table without one syncs by rowid (see `SeedFileFormat.reload`).
  case sync
}

/// A delimiter in words: `a tab`, or the character quoted (`';'`).
func delimiterName(_ delimiter: Character) -> String {
  delimiter == "\t" ? "a tab" : "'\(delimiter)'"
}
