import Foundation

/// The reference side of a real-folder comparison: the sqlite3 command-line shell, a real
/// process, running each migration's SQL as the folder's tool would send it.
struct ReferenceDatabase {
  static let shell = URL(fileURLWithPath: "/usr/bin/sqlite3")

  /// The history tables of strata and of the tools whose folders are compared; each tool keeps
  /// its own, so they are left out of both schemas.
  static let historyTables: Set<String> = [
    "strata_migrations", "schema_migrations", "goose_db_version", "gorp_migrations",
    "_sqlx_migrations", "__diesel_schema_migrations", "flyway_schema_history", "sqlite_sequence",
  ]

  let file: URL

  /// Runs `sql` in one transaction, as the tools do, stopping at the first error (`-bail`), so
  /// a failing part leaves the file as it was. A part that manages its own transaction (a
  /// top-level `BEGIN`) runs as written. Returns whether it succeeded.
  @discardableResult
  func run(_ sql: String) throws -> Bool {
    let ownTransaction = sql.split(separator: "\n").contains {
      let line = $0.trimmingCharacters(in: .whitespaces).uppercased()
      return line.hasPrefix("BEGIN;") || line.hasPrefix("BEGIN TRANSACTION")
    }
    let script = ownTransaction ? sql : "BEGIN;\n\(sql)\n;COMMIT;\n"
    return try Self.shell(["-bail", file.path], input: script).status == 0
  }

  /// The schema (every `sqlite_master` row but the history tables and their indexes, spaces
  /// collapsed) and every row of every table, as the sqlite3 shell prints them.
  static func fingerprint(_ file: URL, rows compareRows: Bool = true) throws -> [String] {
    let excluded = historyTables.map { "'\($0)'" }.joined(separator: ",")
    let schema = try shell(
      [
        "-separator", " | ", file.path,
        "SELECT type, name, tbl_name, replace(coalesce(sql, ''), char(10), ' ') FROM sqlite_master "
          + "WHERE tbl_name NOT IN (\(excluded)) ORDER BY type, name",
      ],
      input: ""
    ).output
    let lines = schema.split(separator: "\n").map {
      $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
    var rows: [String] = []
    for line in lines where compareRows && line.hasPrefix("table | ") {
      let name = line.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let data = try shell(
        ["-json", file.path, "SELECT * FROM \(quoted)"],
        input: ""
      ).output
      rows += data.split(separator: "\n").map { "\(name): \($0)" }
    }
    return lines + rows
  }

  /// Runs the sqlite3 shell with `arguments`, `input` on its standard input.
  static func shell(_ arguments: [String], input: String) throws -> (status: Int32, output: String)
  {
    let process = Process()
    process.executableURL = shell
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}
