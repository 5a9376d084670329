import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 30, items 3 and 4: SQL output follows one rule. To a file or a pipe it is the exact
/// text that was made and checked, so that `strata diff … > file` saves the migration that was
/// checked and `inspect --format sql` recreates the same names; on a terminal it is escaped as
/// every other output is, so that a name or value cannot set the title or clear the screen.
@Suite struct SQLOutputTests {
  /// A column named with a carriage return and a clear-screen sequence.
  static let column = "c\rd\u{1B}[2J"
  /// A default value with a carriage return and a sequence that sets the window's title.
  static let value = "a\rb\u{1B}]0;owned\u{7}c"
  /// A table named with a carriage return and a colour.
  static let table = "t\r\u{1B}[31mx"
  /// A column name whose line break would start a forged `Error:` line on a terminal.
  static let forged = "n\nError: forged"

  static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }

  static let desired = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, \(quoted(column)) TEXT DEFAULT \(literal(value)));
    CREATE TABLE \(quoted(table)) (id INTEGER PRIMARY KEY, \(quoted(forged)) TEXT DEFAULT \(literal(value)));

    """

  private func project() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_t.sql",
      "-- migrate:up\nCREATE TABLE t (id INTEGER PRIMARY KEY);\n-- migrate:down\nDROP TABLE t;\n"
    )
    try folder.write("desired.sql", Self.desired)
    return folder
  }

  /// The database the desired schema describes, made directly, for `inspect`.
  private func strangeDatabase(_ folder: TemporaryDirectory) throws -> URL {
    let database = folder.path("strange.sqlite3")
    try Connection(path: database.path).execute(Self.desired)
    return database
  }

  /// What the terminal received holds no control byte but line breaks and tabs (no C0, DEL
  /// or C1 character), and is UTF-8.
  private func expectNothingRaw(
    _ run: OutputRun.Result,
    _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let raw = run.output.filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }
    #expect(raw.isEmpty, "\(label): raw control bytes \(raw)", sourceLocation: sourceLocation)
    let text = String(decoding: run.output, as: UTF8.self)
    #expect(Array(text.utf8) == run.output, "\(label): not UTF-8", sourceLocation: sourceLocation)
    let c1 = text.unicodeScalars.filter { (0x80...0x9F).contains($0.value) }
    #expect(c1.isEmpty, "\(label): C1 controls \(c1)", sourceLocation: sourceLocation)
    #expect(
      !text.split(separator: "\n").contains { $0.hasPrefix("Error: forged") },
      "\(label): a name started a line",
      sourceLocation: sourceLocation
    )
  }

  /// Item 3: the migration `diff` saves to a file, applied by `strata migrate`, gives exactly
  /// the desired names and values; the literal is in the file byte for byte.
  @Test func diffSavedToAFileIsTheMigrationThatWasChecked() throws {
    let folder = try project()
    let saved = folder.path("change.sql")
    let diff = try OutputRun.toFile(
      ["diff", "--schema", "desired.sql"],
      in: folder.url,
      file: saved
    )
    #expect(diff.exitCode == 0, "\(diff.standardError)")
    let statement = "ALTER TABLE \"t\" ADD COLUMN \(Self.quoted(Self.column)) TEXT DEFAULT "
    #expect(diff.output.firstRange(of: Array((statement + Self.literal(Self.value)).utf8)) != nil)
    #expect(diff.output.firstRange(of: Array("\\u{1B}".utf8)) == nil)

    try FileManager.default.moveItem(at: saved, to: folder.path("migrations/0002_change.sql"))
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3", "-q"],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let database = folder.path("app.sqlite3")
    #expect(try DatabaseProbe.tables(database).contains(Self.table))
    let connection = try Connection(path: database.path)
    try connection.execute("INSERT INTO t (id) VALUES (1);")
    try connection.execute("INSERT INTO \(Self.quoted(Self.table)) (id) VALUES (1);")
    let values = try DatabaseProbe.rows(
      database,
      "SELECT CAST(\(Self.quoted(Self.column)) AS BLOB) FROM t UNION ALL "
        + "SELECT CAST(\(Self.quoted(Self.forged)) AS BLOB) FROM \(Self.quoted(Self.table))"
    )
    #expect(
      values.map { $0.first } == [.blob(Array(Self.value.utf8)), .blob(Array(Self.value.utf8))]
    )
  }

  /// Item 3's rule for `inspect --format sql`: a file gets SQLite's exact text, which the
  /// sqlite3 shell reads back into the same names and values.
  @Test func inspectSQLToAFileIsExactAndRecreatesTheNames() throws {
    let folder = try TemporaryDirectory()
    let database = try strangeDatabase(folder)
    let saved = folder.path("dump.sql")
    let dump = try OutputRun.toFile(
      ["inspect", "--format", "sql", "--database", database.path],
      in: folder.url,
      file: saved
    )
    #expect(dump.exitCode == 0, "\(dump.standardError)")
    let statements = try DatabaseProbe.rows(
      database,
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"
    ).compactMap { $0.first?.textValue }
    #expect(statements.count == 2)
    for statement in statements {
      #expect(dump.output.firstRange(of: Array(statement.utf8)) != nil, "\(statement)")
    }
    let piped = try StrataProcess.run(
      ["inspect", "--format", "sql", "--database", database.path],
      in: folder.url
    )
    #expect(Array(piped.standardOutput.utf8) == dump.output)

    let copy = folder.path("copy.sqlite3")
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    shell.arguments = ["-bail", copy.path]
    shell.standardInput = try FileHandle(forReadingFrom: saved)
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    #expect(try DatabaseProbe.tables(copy).sorted() == ["t", Self.table].sorted())
    let columns = try DatabaseProbe.rows(
      copy,
      "SELECT name, dflt_value FROM pragma_table_info('t') UNION ALL "
        + "SELECT name, dflt_value FROM pragma_table_info(\(Self.literal(Self.table)))"
    ).map { $0.map(\.textValue) }
    #expect(
      columns == [
        ["id", nil], [Self.column, Self.literal(Self.value)], ["id", nil],
        [Self.forged, Self.literal(Self.value)],
      ]
    )
  }

  /// Item 4: on a terminal, `inspect --format sql` and `diff` show every control escaped
  /// (`\u{1B}`), line breaks in names too, as the other formats do; nothing raw reaches it.
  @Test func aTerminalGetsSQLEscaped() throws {
    let folder = try project()
    let database = try strangeDatabase(folder)
    let inspect = try OutputRun.onTerminal(
      ["inspect", "--format", "sql", "--database", database.path],
      in: folder.url
    )
    #expect(inspect.exitCode == 0)
    expectNothingRaw(inspect, "inspect --format sql")
    let shown = String(decoding: inspect.output, as: UTF8.self)
    #expect(shown.contains("\"c\\u{D}d\\u{1B}[2J\" TEXT DEFAULT 'a\\u{D}b\\u{1B}]0;owned\\u{7}c'"))
    #expect(shown.contains("\"n\\u{A}Error: forged\""))

    let diff = try OutputRun.onTerminal(["diff", "--schema", "desired.sql"], in: folder.url)
    #expect(diff.exitCode == 0)
    expectNothingRaw(diff, "diff")
    let printed = String(decoding: diff.output, as: UTF8.self)
    #expect(printed.contains("DEFAULT 'a\\u{D}b\\u{1B}]0;owned\\u{7}c';"))
    #expect(printed.contains("-- migrate:down\n"))

    for format in ["text", "markdown", "mermaid", "json"] {
      let other = try OutputRun.onTerminal(
        ["inspect", "--format", format, "--database", database.path],
        in: folder.url
      )
      #expect(other.exitCode == 0)
      expectNothingRaw(other, "inspect --format \(format)")
    }
  }
}
