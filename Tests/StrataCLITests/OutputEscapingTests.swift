import Foundation
import Strata
import StrataTestSupport
import Testing

/// Item 11: a file name, path or value with a line break, an escape sequence or a bidi control
/// reaches the terminal escaped (`\u{1B}`), the way usage errors show an argument: it cannot
/// forge an `Error:` line, recolour the terminal or reorder what it shows. JSON escapes as JSON
/// does, and SQL output stays SQL that sqlite3 reads back.
@Suite struct OutputEscapingTests {
  static let forged = "0002_x\n\u{1B}[31mError: forged.sql"
  static let reversed = "0003_\u{202E}lqs.sql"

  static func migration(_ table: String) -> String {
    "-- migrate:up\nCREATE TABLE \(table) (id INTEGER PRIMARY KEY);\n"
      + "-- migrate:down\nDROP TABLE \(table);\n"
  }

  static func project() throws -> Project {
    try Project([
      "0001_first.sql": migration("first"),
      forged: migration("second"),
      reversed: migration("third"),
    ])
  }

  /// Nothing raw that a terminal acts on or hides, the names shown escaped, and no line that a
  /// name started.
  private func expectEscaped(
    _ result: ProcessResult,
    _ label: String,
    showsNames: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (stream, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
      let controls = text.unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
          || [0x2028, 0x2029, 0x202E].contains($0.value)
      }
      #expect(
        controls.isEmpty,
        "\(label) \(stream): \(controls.map(\.value))",
        sourceLocation: sourceLocation
      )
      #expect(
        !text.split(separator: "\n").contains {
          $0.hasPrefix("\u{1B}[31mError: forged") || $0.hasPrefix("Error: forged")
        },
        "\(label) \(stream)",
        sourceLocation: sourceLocation
      )
    }
    if showsNames {
      let all = result.standardOutput + result.standardError
      #expect(
        all.contains("0002_x\\u{A}\\u{1B}[31mError: forged.sql"),
        "\(label)",
        sourceLocation: sourceLocation
      )
    }
  }

  @Test func migrateStatusValidateAndDryRunsShowNamesEscaped() throws {
    let project = try Self.project()
    let db = project.database.path
    let dryRun = try project.strata("migrate", "--dry-run", "--database", db)
    #expect(dryRun.exitCode == 0)
    expectEscaped(dryRun, "migrate --dry-run")
    #expect(dryRun.standardOutput.contains("0003_\\u{202E}lqs.sql"))

    let migrate = try project.strata("migrate", "--database", db)
    #expect(migrate.exitCode == 0)
    expectEscaped(migrate, "migrate")
    #expect(try project.versions() == [1, 2, 3])

    let status = try project.strata("status", "--database", db)
    #expect(status.exitCode == 0)
    expectEscaped(status, "status")

    let validate = try project.strata("validate", "--database", db)
    #expect(validate.exitCode == 0)
    expectEscaped(validate, "validate", showsNames: false)

    let rollback = try project.strata("rollback", "--dry-run", "--to", "1", "--database", db)
    #expect(rollback.exitCode == 0)
    expectEscaped(rollback, "rollback --dry-run")
  }

  @Test func errorsNamingTheFileAreOneLineEach() throws {
    let project = try Self.project()
    try project.write(Self.forged, "-- migrate:up\nCREAT TABLE oops (id);\n-- migrate:down\n")
    let failed = try project.strata("migrate", "--database", project.database.path)
    #expect(failed.exitCode == 1)
    expectEscaped(failed, "migrate error")
    let errorLines = failed.standardError.split(separator: "\n").filter { $0.hasPrefix("Error:") }
    #expect(errorLines.count == 1)
    #expect(try project.versions() == [1])

    // A file changed after it was applied: validate and status name it.
    try project.write(Self.forged, Self.migration("second"))
    try project.strata("migrate", "--database", project.database.path)
    try project.write(Self.forged, Self.migration("second_changed"))
    let validate = try project.strata("validate", "--database", project.database.path)
    #expect(validate.exitCode == 1)
    expectEscaped(validate, "validate error")
    let status = try project.strata("status", "--check", "--database", project.database.path)
    #expect(status.exitCode == 1)
    expectEscaped(status, "status --check")
  }

  @Test func usageErrorsAndPathsFollowTheSameRule() throws {
    let project = try Self.project()
    let missing = try project.strata(
      "status",
      "--migrations",
      "no\n\u{1B}[2Jsuch\u{202E}",
      "--database",
      project.database.path
    )
    #expect(missing.exitCode == 1)
    expectEscaped(missing, "missing folder", showsNames: false)
    #expect(missing.standardError.contains("no\\u{A}\\u{1B}[2Jsuch\\u{202E}"))

    let database = "data\n\u{1B}[31mError: forged.sqlite3"
    let migrate = try project.strata("migrate", "--database", database)
    #expect(migrate.exitCode == 0)
    expectEscaped(migrate, "database path")
    #expect(
      migrate.standardOutput.contains(
        "data\\u{A}\\u{1B}[31mError: forged.sqlite3 is now at version 3"
      )
    )
  }

  @Test func seedReportsAndSeedErrorsShowTheFileEscaped() throws {
    let project = try Project([
      "0001_person.sql": "-- migrate:up\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n"
    ])
    try project.strata("migrate", "--database", project.database.path)
    let file = "p\n\u{1B}[31mError: forged\u{202E}.csv"
    try project.dir.write(file, "id,name\n1,Ada\n")
    let seeded = try project.strata(
      "seed",
      file,
      "--table",
      "person",
      "--database",
      project.database.path
    )
    #expect(seeded.exitCode == 0)
    expectEscaped(seeded, "seed", showsNames: false)
    #expect(seeded.standardOutput.contains("p\\u{A}\\u{1B}[31mError: forged\\u{202E}.csv"))
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM person") == 1)

    try project.dir.write(file, "id,nome\n2,Bob\n")
    let failed = try project.strata(
      "seed",
      file,
      "--table",
      "person",
      "--database",
      project.database.path
    )
    #expect(failed.exitCode == 1)
    expectEscaped(failed, "seed error", showsNames: false)
    #expect(
      failed.standardError.split(separator: "\n").filter { $0.hasPrefix("Error:") }.count == 1
    )
  }

  @Test func jsonCarriesTheExactNameEscapedAsJSON() throws {
    let project = try Self.project()
    try project.strata("migrate", "--database", project.database.path)
    let result = try project.strata(
      "status",
      "--format",
      "json",
      "--database",
      project.database.path
    )
    #expect(result.exitCode == 0)
    // JSON escapes: nothing raw a terminal acts on, and no Swift-style escape either.
    #expect(!result.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    #expect(result.standardOutput.contains("\\u202E") || result.standardOutput.contains("\\u202e"))
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let migrations = (object as? [String: Any])?["migrations"] as? [[String: Any]] ?? []
    let files = migrations.compactMap { $0["file"] as? String }
    #expect(files.contains { $0.hasSuffix(Self.forged) })
    #expect(files.contains { $0.hasSuffix(Self.reversed) })
  }

  /// `inspect --format sql` is SQLite's own text: a table named with a newline, an escape and a
  /// quote reads back through the sqlite3 shell as the same schema.
  @Test func sqlDumpOfStrangeNamesRoundTripsThroughSQLite() throws {
    let dir = try TemporaryDirectory()
    let source = dir.path("source.sqlite3")
    let names = ["a\nError: forged\u{1B}[31m", "q\"uote", "bidi\u{202E}x", "semi;colon -- x"]
    let connection = try Connection(path: source.path)
    for name in names {
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      try connection.execute("CREATE TABLE \(quoted) (\"c\nd\" INTEGER);")
    }
    let dump = try StrataProcess.run(
      ["inspect", "--format", "sql", "--database", source.path],
      in: dir.url
    )
    #expect(dump.exitCode == 0)
    try Data(dump.standardOutput.utf8).write(to: dir.path("schema.sql"))
    let copy = dir.path("copy.sqlite3")
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    shell.arguments = ["-bail", copy.path]
    shell.standardInput = try FileHandle(forReadingFrom: dir.path("schema.sql"))
    let errors = Pipe()
    shell.standardError = errors
    try shell.run()
    let errorText = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self
    )
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0, "\(errorText)")
    #expect(try DatabaseProbe.tables(copy).sorted() == names.sorted())
    let column = try DatabaseProbe.rows(copy, "SELECT name FROM pragma_table_info('q\"uote')")
    #expect(column.first?.first?.textValue == "c\nd")

    for format in ["text", "markdown", "mermaid", "json"] {
      let shown = try StrataProcess.run(
        ["inspect", "--format", format, "--database", source.path],
        in: dir.url
      )
      #expect(shown.exitCode == 0)
      expectEscaped(shown, "inspect --format \(format)", showsNames: false)
    }
  }
}
