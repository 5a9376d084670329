import Foundation

// The two kinds of file report a seed run makes: one source for each.
extension SeedTableReport {
  /// The report of a file skipped because the ledger has its checksum.
  static func alreadyRecorded(
    _ file: SeedFile,
    table: String,
    mode: SeedMode,
    checksum: String
  ) -> SeedTableReport {
    SeedTableReport(
      file: file.displayPath,
      table: table,
      mode: mode,
      checksum: checksum,
      rowsRead: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      alreadyRecorded: true,
      durationMs: 0
    )
  }

  /// The report of a file loaded with `counts`.
  static func loaded(
    _ file: SeedFile,
    table: String,
    mode: SeedMode,
    checksum: String,
    counts: SeedLoader.Counts,
    durationMs: Int64
  ) -> SeedTableReport {
    SeedTableReport(
      file: file.displayPath,
      table: table,
      mode: mode,
      checksum: checksum,
      rowsRead: counts.rowsRead,
      inserted: counts.inserted,
      updated: counts.updated,
      unchanged: mode.rules.reportsUnchanged
        ? counts.rowsRead - counts.inserted - counts.updated : 0,
      deleted: counts.deleted,
      alreadyRecorded: false,
      durationMs: durationMs
    )
  }
}
