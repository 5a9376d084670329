import Foundation

// The report of one file, made from a load's counts: the one place that turns counts into
// report fields, for a loaded file and for one skipped as already recorded.
extension SeedTableReport {
  /// The report of `file`, loaded into `table` with `counts` (or skipped, when
  /// `alreadyRecorded`).
  init(
    _ file: SeedFile,
    table: String,
    mode: SeedMode,
    checksum: String,
    counts: SeedLoader.Counts,
    durationMs: Int64,
    alreadyRecorded: Bool = false
  ) {
    self.init(
      file: file.displayPath,
      table: table,
      mode: mode,
      checksum: checksum,
      rowsRead: counts.rowsRead,
      inserted: counts.inserted,
      updated: counts.updated,
      unchanged: mode.rules.reportsUnchanged
        ? counts.rowsRead - counts.inserted - counts.updated - counts.keptAmongRead : 0,
      deleted: counts.deleted,
      kept: counts.kept,
      alreadyRecorded: alreadyRecorded,
      durationMs: durationMs,
      nullCounts: counts.nulls
    )
  }

  /// The report of a file skipped because the ledger has its checksum.
  static func alreadyRecorded(
    _ file: SeedFile,
    table: String,
    mode: SeedMode,
    checksum: String
  ) -> SeedTableReport {
    SeedTableReport(
      file,
      table: table,
      mode: mode,
      checksum: checksum,
      counts: SeedLoader.Counts(),
      durationMs: 0,
      alreadyRecorded: true
    )
  }
}
