import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 30, items 3 and 4, the fourth pass: SQL output keeps a CR LF inside a name or a
/// value, never writes U+FFFD for bytes that are not UTF-8, escapes the line breaks of a
/// comment on a terminal, and goose does not split a statement at a `;` inside a string.
@Suite struct SQLOutputFidelityTests {
  static let crlfTable =
    "CREATE TABLE t (id INTEGER PRIMARY KEY, \"n\r\nm\" TEXT, v TEXT DEFAULT 'a\r\nb')"

  /// The sqlite3 shell drops a CR before an LF in its input, so the database is made here.
  private func database(_ folder: TemporaryDirectory, _ name: String, _ sql: String) throws -> URL {
    let database = folder.path(name)
    try Connection(path: database.path).execute(sql)
    return database
  }

  /// F1: the dump holds the CR LF of the name and the value exactly, and `diff` and `schema`
  /// read it back as the same schema.
  @Test func aCRLFInsideANameOrAValueIsKept() throws {
    let folder = try TemporaryDirectory()
    let crlf = try database(folder, "crlf.db", Self.crlfTable + ";")
    let saved = folder.path("crlf.sql")
    let dump = try OutputRun.toFile(
      ["inspect", "--database", crlf.path, "--format", "sql"],
      in: folder.url,
      file: saved
    )
    #expect(dump.exitCode == 0, "\(dump.standardError)")
    #expect(dump.output.firstRange(of: Array(Self.crlfTable.utf8)) != nil)
    let diff = try StrataProcess.run(
      ["diff", "--database", "crlf.db", "--schema", "crlf.sql"],
      in: folder.url
    )
    #expect(diff.exitCode == 0, "\(diff.standardError)")
    #expect(diff.standardError.hasPrefix("No changes"))
    let schema = try StrataProcess.run(
      ["schema", "--database", "crlf.db", "--schema-file", "schema.sql"],
      in: folder.url
    )
    #expect(schema.exitCode == 0, "\(schema.standardError)")
    let written = try Data(contentsOf: folder.path("schema.sql"))
    #expect(written.firstRange(of: Data(Self.crlfTable.utf8)) != nil)
  }

  /// F1: a desired schema's CR LF inside a value is the value; a migration file would read it
  /// as LF, so `diff` refuses, naming the table, instead of printing "No changes". A desired
  /// schema written (or checked out) with CR LF line endings throughout is another matter: the
  /// line breaks inside its strings became CR LF with the others, and read as LF with them.
  @Test(arguments: [
    (
      "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT DEFAULT 'a\r\nb');\n",
      Int32(1),
      "the table t with a CR LF line break inside"
    ),
    (
      "-- checked out with autocrlf\r\nCREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT DEFAULT "
        + "'a\r\nb');\r\n",
      Int32(0),
      "No changes"
    ),
  ])
  func aDesiredCRLFInsideAValueIsReadAsItsFileMeansIt(
    desired: String,
    exitCode: Int32,
    said: String
  ) throws {
    let folder = try TemporaryDirectory()
    _ = try database(
      folder,
      "lf.db",
      "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT DEFAULT 'a\nb');"
    )
    try folder.write("desired.sql", desired)
    let diff = try StrataProcess.run(
      ["diff", "--database", "lf.db", "--schema", "desired.sql"],
      in: folder.url
    )
    #expect(diff.exitCode == exitCode, "\(diff.standardError)")
    #expect(diff.standardOutput == "")
    #expect(diff.standardError.contains(said), "\(diff.standardError)")
  }

  /// F2: a CREATE statement that is not UTF-8 is refused in a dump and in `diff`, never
  /// written as U+FFFD or compared equal to a desired U+FFFD.
  @Test func invalidUTF8IsRefusedNotReplaced() throws {
    let folder = try TemporaryDirectory()
    let script = folder.path("inv.txt")
    try Data(
      Array("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT DEFAULT 'a".utf8) + [0xFF]
        + Array("b');\n".utf8)
    ).write(to: script)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    shell.arguments = [folder.path("inv.db").path]
    shell.standardInput = try FileHandle(forReadingFrom: script)
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)

    let dump = try OutputRun.toFile(
      ["inspect", "--database", "inv.db", "--format", "sql"],
      in: folder.url,
      file: folder.path("inv.sql")
    )
    #expect(dump.exitCode == 1)
    #expect(dump.output.firstRange(of: [0xEF, 0xBF, 0xBD]) == nil)
    #expect(dump.standardError.contains("CREATE statement of the table t is not valid UTF-8"))

    try folder.write(
      "desired.sql",
      "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT DEFAULT 'a\u{FFFD}b');\n"
    )
    let diff = try StrataProcess.run(
      ["diff", "--database", "inv.db", "--schema", "desired.sql"],
      in: folder.url
    )
    #expect(diff.exitCode == 1)
    #expect(!diff.standardError.contains("No changes"))
    #expect(diff.standardError.contains("not valid UTF-8"))
  }

  static let comment = "/*\nError: database disk image is malformed\nHelp: run rm -rf ~\n*/"

  /// F3: on a terminal the line breaks of a `/* */` comment are escaped, in every format that
  /// shows SQL and in `diff`; in a file they stay.
  @Test func aCommentCannotForgeALineOnATerminal() throws {
    let folder = try TemporaryDirectory()
    let sql =
      "CREATE TABLE t (id INTEGER PRIMARY KEY \(Self.comment));\n"
      + "CREATE VIEW v AS SELECT id \(Self.comment) FROM t;\n"
    let commented = try database(folder, "f.db", sql)
    try folder.write(
      "migrations/0001_t.sql",
      "-- migrate:up\nCREATE TABLE a (id INTEGER PRIMARY KEY);\n-- migrate:down\nDROP TABLE a;\n"
    )
    try folder.write("desired.sql", "CREATE TABLE a (id INTEGER PRIMARY KEY);\n" + sql)
    let runs = [
      ["inspect", "--database", commented.path, "--format", "sql"],
      ["inspect", "--database", commented.path],
      ["inspect", "--database", commented.path, "--format", "markdown"],
      ["diff", "--schema", "desired.sql"],
    ]
    for arguments in runs {
      let run = try OutputRun.onTerminal(arguments, in: folder.url)
      #expect(run.exitCode == 0, "\(arguments): \(run.standardError)")
      let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n")
      #expect(!lines.contains { $0.hasPrefix("Error:") || $0.hasPrefix("Help:") }, "\(arguments)")
      #expect(
        String(decoding: run.output, as: UTF8.self).contains("/*\\u{A}Error: database"),
        "\(arguments)"
      )
    }
    let piped = try StrataProcess.run(
      ["inspect", "--database", commented.path, "--format", "sql"],
      in: folder.url
    )
    #expect(piped.standardOutput.contains(Self.comment))
  }

  /// F4: a line break in the database's path is escaped in the text header.
  @Test func aLineBreakInThePathIsEscaped() throws {
    let folder = try TemporaryDirectory()
    _ = try database(folder, "n\nError: x.db", "CREATE TABLE t (id INTEGER PRIMARY KEY);")
    let run = try OutputRun.onTerminal(
      ["inspect", "--database", "n\nError: x.db"],
      in: folder.url
    )
    #expect(run.exitCode == 0, "\(run.standardError)")
    let shown = String(decoding: run.output, as: UTF8.self)
    #expect(!shown.split(separator: "\n").contains { $0.hasPrefix("Error:") })
    #expect(shown.contains("n\\u{A}Error: x.db"))
  }

  /// F5: goose and sql-migrate end a statement at a line whose last word ends in `;`, quotes
  /// or not: such a statement is wrapped as a trigger is.
  @Test func aSemicolonAtALineEndInsideAStringIsWrappedForGoose() throws {
    for (format, up, down) in [
      ("goose", "-- +goose Up", "-- +goose Down"),
      ("sql-migrate", "-- +migrate Up", "-- +migrate Down"),
    ] {
      let folder = try TemporaryDirectory()
      try folder.write(
        "migrations/00001_a.sql",
        "\(up)\nCREATE TABLE a (x INTEGER);\n\(down)\nDROP TABLE a;\n"
      )
      try folder.write(
        "desired.sql",
        "CREATE TABLE a (x INTEGER);\nCREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT DEFAULT 'x;\ny');\n"
      )
      let run = try StrataProcess.run(["diff", "--schema", "desired.sql", "-q"], in: folder.url)
      #expect(run.exitCode == 0, "\(format): \(run.standardError)")
      let marker = format == "goose" ? "+goose" : "+migrate"
      #expect(
        run.standardOutput.contains(
          "-- \(marker) StatementBegin\nCREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT DEFAULT "
            + "'x;\ny');\n-- \(marker) StatementEnd\n"
        ),
        "\(format): \(run.standardOutput)"
      )
    }
  }
}
