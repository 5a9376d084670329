/// What a mode does, decided in one `switch`: a new mode does not compile until it says how
/// it meets existing rows, and every part of the seeder asks these rules instead of testing
/// for a mode by name.
struct SeedModeRules {
  /// How a row whose key is already in the table is met.
  enum KeyConflict {
    /// `ON CONFLICT (key) DO NOTHING`: the existing row is kept as it is.
    case keepExisting
    /// `ON CONFLICT (key) DO UPDATE`: the CSV's other columns overwrite the existing row's.
    case updateExisting
  }

  /// nil when the mode finds no existing rows, so the header needs no key.
  let keyConflict: KeyConflict?
  /// The table is emptied before the load (and a delete that would cascade is refused).
  let deletesFirst: Bool
  /// The INSERTs use `OR FAIL` (a failing row stops the statement, keeping the rows before it,
  /// whose count then names the failing row) rather than `OR ABORT` (the rows are replayed one
  /// at a time to find it). Only a mode without a key can locate a failure by the count: with
  /// one, skipped or updated rows do not count.
  let stopsAtFailingRow: Bool
  /// The load can delete or change parent rows, so the tables referencing the seeded ones
  /// (through any chain of cascades) are checked for orphans too.
  let mayOrphanChildren: Bool
  /// The report counts the rows read but not inserted or updated as unchanged.
  let reportsUnchanged: Bool
  /// The rows load into a temporary table first, then merge into the table by what the
  /// ledger says the file wrote before (`sync`, see `SeedSync`).
  var mergesFromStage = false
}

extension SeedMode {
  /// This mode's rules: the one place that says what each mode does.
  var rules: SeedModeRules {
    switch self {
    case .missing:
      SeedModeRules(
        keyConflict: .keepExisting,
        deletesFirst: false,
        stopsAtFailingRow: false,
        mayOrphanChildren: false,
        reportsUnchanged: true
      )
    case .upsert:
      SeedModeRules(
        keyConflict: .updateExisting,
        deletesFirst: false,
        stopsAtFailingRow: false,
        mayOrphanChildren: true,
        reportsUnchanged: true
      )
    case .replace:
      SeedModeRules(
        keyConflict: nil,
        deletesFirst: true,
        stopsAtFailingRow: true,
        mayOrphanChildren: true,
        reportsUnchanged: false
      )
    case .append:
      SeedModeRules(
        keyConflict: nil,
        deletesFirst: false,
        stopsAtFailingRow: true,
        mayOrphanChildren: false,
        reportsUnchanged: true
      )
    case .sync:
      SeedModeRules(
        keyConflict: .keepExisting,
        deletesFirst: false,
        stopsAtFailingRow: false,
        mayOrphanChildren: true,
        reportsUnchanged: true,
        mergesFromStage: true
      )
    }
  }

  /// Whether a table without a key syncs by rowid (`SeedKeylessSync`: the first load recorded,
  /// a changed file merged by the ledger) rather than being refused: in `sync`, and at
  /// launch (`onlyUnrecorded`) whatever the mode.
  func seedsKeylessOnce(onlyUnrecorded: Bool) -> Bool {
    self == .sync || (onlyUnrecorded && rules.keyConflict != nil)
  }

  /// Whether the mode empties each table before loading it, so a report shows the rows it
  /// deleted: the command's table has a DELETED column only then.
  package var deletesExistingRows: Bool { rules.deletesFirst }
}

extension SeedMode {
  /// Whether the mode can delete rows that left the file and keep rows the user changed or
  /// deleted, so a report shows DELETED and KEPT (`sync`).
  package var keepsUsersRows: Bool { rules.mergesFromStage }
}
