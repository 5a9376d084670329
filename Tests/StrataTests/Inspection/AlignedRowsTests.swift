import Testing

@testable import Strata

/// The table layout has a fast path for ASCII rows, and a block form (`alignedBlock`); every
/// row lays out as the plain rule says (pad each cell but the last to its column's width in
/// characters, two spaces apart, no trailing spaces), whatever its characters.
@Suite struct AlignedRowsTests {
  /// The rule, written the slow way.
  static func reference(_ rows: [[String]], indent: String, dropping: Bool) -> [String] {
    let columnCount = rows.map(\.count).max() ?? 0
    let used = (0..<columnCount).filter { column in
      !dropping || rows.dropFirst().contains { column < $0.count && !$0[column].isEmpty }
    }
    let trimmed = rows.map { row in used.map { $0 < row.count ? row[$0] : "" } }
    let widths = used.indices.map { column in trimmed.map { $0[column].count }.max() ?? 0 }
    return trimmed.map { row in
      var line = indent
      for (column, cell) in row.enumerated() {
        line += cell
        if column < row.count - 1 {
          line += String(repeating: " ", count: widths[column] - cell.count + 2)
        }
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  static let cells = [
    "", " ", "a", "applied", "0001_people.sql", "é", "e\u{301}", "名前", "\r\n", "a\r", "x ",
    "🇫🇷", "\u{600} ", "2026-12-03T15:08:21.687Z",
  ]

  @Test func everyRowLaysOutAsTheRuleSays() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let columns = Int.random(in: 1...4, using: &generator)
      let rows = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
        (0..<Int.random(in: 0...columns, using: &generator)).map { _ in
          Self.cells.randomElement(using: &generator)!
        }
      }
      let indent = ["", "  ", "é "].randomElement(using: &generator)!
      let dropping = Bool.random(using: &generator)
      let laidOut = alignedRows(rows, indent: indent, droppingEmptyColumns: dropping)
      let expected = Self.reference(rows, indent: indent, dropping: dropping)
      #expect(
        laidOut == expected,
        "rows \(rows.map { $0.map { Array($0.unicodeScalars) } }), indent '\(indent)'"
      )
      // The block `status` prints: the same lines, each ended by a line feed.
      let block = alignedBlock(rows, indent: indent, droppingEmptyColumns: dropping)
      #expect(
        block == expected.map { $0 + "\n" }.joined(),
        "rows \(rows.map { $0.map { Array($0.unicodeScalars) } }), indent '\(indent)'"
      )
    }
  }
}
