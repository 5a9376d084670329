import Strata
import StrataArguments

/// Aligned columns for text output, laid out by the library's `alignedRows` and
/// `alignedBlock` (the schema's text uses the same), with every cell's controls escaped first.
enum TextTable {
  /// Written in one piece: a status of 1,000 migrations is one write, not 1,001. The cells
  /// are escaped first, so the block is written as it is.
  static func print(_ header: [String], _ rows: [[String]], _ context: CommandContext) {
    context.standardOutput(alignedBlock(escaped(header, rows), droppingEmptyColumns: false))
  }

  static func render(_ header: [String], _ rows: [[String]]) -> [String] {
    alignedRows(escaped(header, rows), droppingEmptyColumns: false)
  }

  /// Escaped before measuring, so that a name's escapes keep the columns aligned. A column
  /// stays even when every row leaves it empty (APPLIED AT before any is applied).
  private static func escaped(_ header: [String], _ rows: [[String]]) -> [[String]] {
    ([header] + rows).map { $0.map { escapingControls($0, keepingTabs: false) } }
  }
}
