/// Reads a sql-migrate file as rubenv/sql-migrate's sqlparse does: a command is a line that
/// starts exactly with `-- +migrate ` (case as written: `Up`, `Down`, `StatementBegin`,
/// `StatementEnd`); `Up` and `Down` may repeat, each switching the direction the next lines go
/// to (both parts keep file order), and take the option `notransaction`. The lines between
/// `StatementBegin` and `StatementEnd` are one statement for sql-migrate; SQLite's parser reads
/// a trigger body as one statement already, so strata runs them as written.
///
/// Where sql-migrate is silent, strata refuses: SQL before the first `Up` or `Down` (which
/// sql-migrate skips), an unknown command or option (which it ignores, sending the lines after it
/// to the previous direction).
enum SQLMigrateReader {
  private static let prefix = Array("-- +migrate ".utf8)

  /// The up part, the down part and the checksum of a sql-migrate file.
  ///
  /// - Throws: `MigrationError.formatProblem` for a file with no `Up`/`Down`, an unknown
  ///   command or option, SQL before the first command, an unclosed `StatementBegin`, or a
  ///   line that looks like another tool's marker; `MigrationError.unwrittenPart` for a part
  ///   still as `strata new` wrote it.
  static func parse(
    bytes rawBytes: [UInt8],
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String) {
    var sections = MigrationSections(bytes: MigrationParser.normalize(rawBytes))
    var direction: MigrationSections.Role = .none
    var openBlock: Int?
    var sawDirection = false
    func problem(_ index: Int, _ reason: String) -> MigrationError {
      .formatProblem(file: file, line: index + 1, format: .sqlMigrate, reason: reason)
    }
    for index in sections.lines.indices {
      let line = sections.line(index)
      guard line.starts(with: prefix) else {
        if let (tool, marker) = MarkerLookalike.match(line), tool == "sql-migrate" {
          throw problem(
            index,
            "'\(marker)' is not read by sql-migrate, which reads exactly "
              + "'-- +migrate Up' and '-- +migrate Down'; none of the file was run"
          )
        }
        try MigrationParser.refuseLookalike(line, file: file, line: index + 1, format: .sqlMigrate)
        if direction == .none, containsSQL(line) {
          throw problem(
            index,
            "SQL before the first '-- +migrate Up' or '-- +migrate Down' "
              + "(sql-migrate would skip it without a word)"
          )
        }
        sections.roles[index] = direction
        continue
      }
      let words = String(decoding: line.dropFirst(prefix.count), as: UTF8.self)
        .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      let command = words.first ?? ""
      for option in words.dropFirst() where option != "notransaction" || command.hasPrefix("S") {
        throw problem(index, "unknown option '\(option)' after '-- +migrate \(command)'")
      }
      switch command {
      case "Up":
        sawDirection = true
        direction = .up(section: 0)
        if words.count > 1 { sections.upTransactional = false }
      case "Down":
        sawDirection = true
        direction = .down(section: 0)
        sections.downMarked.insert(0)
        if words.count > 1 { sections.downTransactional = false }
      case "StatementBegin":
        if direction != .none { openBlock = index }
      case "StatementEnd":
        openBlock = nil
      default:
        throw problem(
          index,
          "unknown command '-- +migrate \(command)' (sql-migrate reads Up, "
            + "Down, StatementBegin and StatementEnd)"
        )
      }
    }
    if let openBlock {
      throw problem(openBlock, "'-- +migrate StatementBegin' with no StatementEnd after it")
    }
    guard sawDirection else {
      throw problem(0, "no '-- +migrate Up' or '-- +migrate Down' command; sql-migrate refuses it")
    }
    return try sections.parts(file: file)
  }

  /// True when `line` is a sql-migrate command (what detection looks for).
  static func isCommand(_ line: ArraySlice<UInt8>) -> Bool { line.starts(with: prefix) }
}
