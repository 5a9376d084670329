import StrataArguments

/// Aligned columns for text output.
enum TextTable {
  static func print(_ header: [String], _ rows: [[String]], _ context: CommandContext) {
    for line in render(header, rows) { context.print(line) }
  }

  static func render(_ header: [String], _ rows: [[String]]) -> [String] {
    // Escaped before measuring, so that a name's escapes keep the columns aligned.
    let all = ([header] + rows).map { $0.map { escapingControls($0, keepingTabs: false) } }
    let widths = header.indices.map { column in
      all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
