import Foundation
import Strata
import StrataTestSupport

/// Databases for the inspection tests, each built fresh in the test's own folder.
enum InspectionFixtures {
  /// The package's root folder, which holds the sample project's `migrations/`.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Inspection
      .deletingLastPathComponent()  // StrataTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()
  }

  static func sampleMigrations() throws -> MigrationSet {
    try MigrationSet(
      directory: packageRoot.appendingPathComponent("migrations"),
      displayPath: "migrations"
    )
  }

  /// The sample project's database, migrated to its newest version.
  static func migratedSample(in folder: TemporaryDirectory) throws -> URL {
    let url = folder.path("sample.sqlite3")
    let connection = try Connection(path: url.path)
    _ = try Migrator(try sampleMigrations()).migrate(connection)
    return url
  }

  /// A schema with every feature the inspector reports: generated columns (virtual and
  /// stored), WITHOUT ROWID, STRICT, AUTOINCREMENT, a collation, CHECK constraints, foreign
  /// keys, a partial index with an expression column, an FTS5 table, a view and a trigger, and
  /// names with quotes, spaces and non-ASCII letters.
  static let richSchema = """
    CREATE TABLE author (
      id    INTEGER PRIMARY KEY AUTOINCREMENT,
      name  TEXT NOT NULL COLLATE NOCASE,
      "e""mail" TEXT UNIQUE
    );
    CREATE TABLE "book list" (
      isbn        TEXT PRIMARY KEY,
      author_id   INTEGER NOT NULL REFERENCES author ON DELETE CASCADE,
      title       TEXT NOT NULL CONSTRAINT title_not_empty CHECK (length(title) > 0),
      price       REAL DEFAULT 0.0,
      price_cents INTEGER GENERATED ALWAYS AS (CAST(price * 100 AS INTEGER)) STORED,
      shout       TEXT AS (upper(title)) VIRTUAL,
      CHECK (price >= 0)
    ) WITHOUT ROWID;
    CREATE TABLE café (naïve TEXT, n INTEGER NOT NULL DEFAULT 1, anything ANY) STRICT;
    CREATE INDEX "cheap books" ON "book list" (lower(title) DESC, price COLLATE NOCASE)
      WHERE price < 10;
    CREATE VIRTUAL TABLE docs USING fts5(title, body);
    CREATE VIEW "cheap titles" AS SELECT isbn, title FROM "book list" WHERE price < 10;
    CREATE TRIGGER author_renamed AFTER UPDATE OF name ON author
    BEGIN
      UPDATE "book list" SET title = title WHERE author_id = new.id;
    END;
    INSERT INTO author (name) VALUES ('Ann'), ('Bo');
    INSERT INTO docs (title, body) VALUES ('one', 'first'), ('two', 'second');
    """

  static func richDatabase(
    in folder: TemporaryDirectory,
    name: String = "rich.sqlite3"
  ) throws
    -> URL
  {
    let url = folder.path(name)
    try Connection(path: url.path).execute(richSchema)
    return url
  }

  /// Runs the sqlite3 command-line shell.
  @discardableResult
  static func sqlite3(_ arguments: [String], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw SQLiteShellError(message: String(decoding: errorData, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
  }

  struct SQLiteShellError: Error, CustomStringConvertible {
    let message: String
    var description: String { "sqlite3 failed: \(message)" }
  }
}

/// Checks a Mermaid `erDiagram` against the tokens of Mermaid's own grammar
/// (`packages/mermaid/src/diagrams/er/parser/erDiagram.jison`), in the subset both the 9.x/10.x
/// and the 11.x lexers accept: quoted entity names without `"`, `%`, `\` or line breaks;
/// attribute types `[A-Za-z_][A-Za-z0-9_()]*` and names `[A-Za-z_][A-Za-z0-9_]*`, neither read
/// as the key words PK, FK or UK; keys separated by ", "; quoted comments; relationships
/// `"a" <card><-- or ..><card> "b" : "label"`.
enum MermaidGrammar {
  static func problems(in diagram: String) -> [String] {
    let entity = #""[^"%\\\r\n]+""#
    let patterns = (
      open: "^  \(entity) \\{$",
      attribute:
        #"^    [A-Za-z_][A-Za-z0-9_()]* [A-Za-z_][A-Za-z0-9_]*( (PK|FK|UK)(, (PK|FK|UK))*)?( "[^"]*")?$"#,
      close: "^  \\}$",
      relationship:
        "^  \(entity) (\\|\\||\\|o)(--|\\.\\.)(o\\{|o\\||\\|\\||\\|\\{) \(entity) : \"[^\"]*\"$"
    )
    var problems: [String] = []
    var lines = diagram.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard lines.first == "erDiagram" else { return ["the first line is not erDiagram"] }
    var inBlock = false
    for (number, line) in lines.enumerated().dropFirst() {
      func matches(_ pattern: String) -> Bool {
        line.range(of: pattern, options: .regularExpression) != nil
      }
      if inBlock {
        if matches(patterns.close) {
          inBlock = false
        } else if matches(patterns.attribute) {
          let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
          for word in words.prefix(2) {
            let upper = word.uppercased()
            if ["PK", "FK", "UK"].contains(where: { upper == $0 || upper.hasPrefix($0 + "(") }) {
              problems.append("line \(number + 1): \(word) is read as a key: \(line)")
            }
          }
        } else {
          problems.append("line \(number + 1): not an attribute: \(line)")
        }
      } else if matches(patterns.open) {
        inBlock = true
      } else if !matches(patterns.relationship) {
        problems.append("line \(number + 1): not an entity or relationship: \(line)")
      }
    }
    if inBlock { problems.append("an entity block is not closed") }
    return problems
  }
}
