import Foundation
import Strata
import StrataArguments

/// Renders what `seed` did: a table per file, or JSON.
enum SeedReportOutput {
  struct Totals: Encodable {
    let rowsRead: Int
    let inserted: Int
    let updated: Int
    let unchanged: Int
    let deleted: Int
    let kept: Int
  }

  struct JSONReport: Encodable {
    let database: String
    let mode: SeedMode
    let dryRun: Bool
    let durationMs: Int64
    let tables: [SeedTableReport]
    let totals: Totals
  }

  static func render(
    _ report: SeedReport,
    database: String,
    mode: SeedMode,
    emptyFolder: String?,
    format: OutputFormat,
    quiet: Bool,
    _ context: CommandContext
  ) {
    context.finished(
      report.dryRun || report.tables.isEmpty
        ? "Nothing was changed in \(database)."
        : "The seed was committed to \(database): \(report.inserted) inserted, "
          + "\(report.updated) updated, \(report.deleted) deleted."
    )
    if format == .json {
      let json = JSONReport(
        database: database,
        mode: mode,
        dryRun: report.dryRun,
        durationMs: report.durationMs,
        tables: report.tables,
        totals: Totals(
          rowsRead: report.rowsRead,
          inserted: report.inserted,
          updated: report.updated,
          unchanged: report.unchanged,
          deleted: report.deleted,
          kept: report.kept
        )
      )
      try? context.printJSON(json)
      return
    }
    if quiet { return }
    if let emptyFolder {
      context.print("No CSV files in \(emptyFolder); nothing was seeded.")
      return
    }
    for line in lines(report, database: database, mode: mode) { context.print(line) }
  }

  /// Per file and null token, the columns where it made NULL and how often: `seeds/p.csv: NA →
  /// NULL in sex 11, bill_length_mm 2`, so a token that is also a real value shows.
  static func nullLines(_ report: SeedReport) -> [String] {
    var lines: [String] = []
    for table in report.tables where !table.nullCounts.isEmpty {
      var tokens: [String] = []
      for count in table.nullCounts where !tokens.contains(count.token) {
        tokens.append(count.token)
      }
      for token in tokens {
        let columns = table.nullCounts.filter { $0.token == token }
          .map { "\($0.column) \($0.count)" }
        lines.append(
          "\(table.file): \(token) → NULL in \(columns.joined(separator: ", "))"
        )
      }
    }
    return lines.isEmpty ? [] : [""] + lines
  }

  /// The text report.
  static func lines(_ report: SeedReport, database: String, mode: SeedMode) -> [String] {
    let dry = report.dryRun
    var header = ["TABLE", "FILE", "READ"]
    header +=
      dry ? ["WOULD INSERT", "WOULD UPDATE", "WOULD SKIP"] : ["INSERTED", "UPDATED", "UNCHANGED"]
    let showKept = mode.keepsUsersRows
    let showDeleted = mode.deletesExistingRows || showKept
    if showDeleted { header.append(dry ? "WOULD DELETE" : "DELETED") }
    if showKept { header.append("KEPT") }
    header.append("TIME")
    let rows = report.tables.map { table -> [String] in
      if table.alreadyRecorded {
        return [table.table, table.file, "-", "-", "-", "-"] + (showDeleted ? ["-"] : [])
          + (showKept ? ["-"] : []) + ["already loaded"]
      }
      var row = [
        table.table, table.file, String(table.rowsRead), String(table.inserted),
        String(table.updated), String(table.unchanged),
      ]
      if showDeleted { row.append(String(table.deleted)) }
      if showKept { row.append(String(table.kept)) }
      row.append("\(table.durationMs) ms")
      return row
    }
    var lines = TextTable.render(header, rows)
    lines += nullLines(report)
    lines.append("")
    let counts =
      "\(report.inserted) inserted, \(report.updated) updated, \(report.unchanged) unchanged"
      + (showDeleted ? ", \(report.deleted) deleted" : "")
      + (showKept ? ", \(report.kept) kept because the user changed or deleted them" : "")
    let files = report.tables.count == 1 ? "1 file" : "\(report.tables.count) files"
    if dry {
      lines.append(
        "Dry run: \(files) would leave \(database) with \(counts.replacingOccurrences(of: "unchanged", with: "skipped")); "
          + "nothing was changed."
      )
    } else {
      lines.append("Seeded \(database) from \(files) in one transaction: \(counts).")
    }
    return lines
  }
}
