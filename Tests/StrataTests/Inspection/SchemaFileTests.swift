import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `SchemaFile`: the text it holds, the atomic write that skips an unchanged file, the check
/// against the migrations, and every path it refuses.
@Suite struct SchemaFileTests {
  /// Two migrations in `folder/migrations`: person, then its age column and index.
  private func migrations(in folder: TemporaryDirectory) throws -> MigrationSet {
    try folder.write(
      "migrations/0001_person.sql",
      "-- migrate:up\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n"
    )
    try folder.write(
      "migrations/0002_age.sql",
      "ALTER TABLE person ADD COLUMN age INTEGER;\nCREATE INDEX person_age ON person (age);\n"
    )
    return try MigrationSet(directory: folder.path("migrations"), displayPath: "migrations")
  }

  private func file(_ folder: TemporaryDirectory, _ name: String = "schema.sql") -> SchemaFile {
    SchemaFile(url: folder.path(name), displayPath: name, projectFolder: folder.url)
  }

  private func inode(_ url: URL) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
  }

  @Test func writesTheMigrationsSchemaOnceAndChecksIt() throws {
    let folder = try TemporaryDirectory()
    let migrations = try migrations(in: folder)
    let schemaFile = file(folder)
    #expect(try schemaFile.state(against: migrations) == .missing)
    #expect(try schemaFile.write(producedBy: migrations) == .written)
    let text = try String(contentsOf: folder.path("schema.sql"), encoding: .utf8)
    #expect(text.hasPrefix("-- strata schema file: the schema the migrations produce"))
    #expect(
      text.hasSuffix(
        "\n\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);\n\n"
          + "CREATE INDEX person_age ON person (age);\n"
      )
    )
    // The same statements as inspect's SQL dump: one renderer, another header.
    let dump = try migrations.producedSchema().rendered(as: .sql)
    #expect(
      text.dropFirst(SchemaFile.header.count) == dump.dropFirst(SQLSchemaRenderer.dumpHeader.count)
    )
    try schemaFile.check(against: migrations)
    // Nothing to change: the file is not rewritten (same inode, no temporary file left).
    let before = try inode(folder.path("schema.sql"))
    #expect(try schemaFile.write(producedBy: migrations) == .unchanged)
    #expect(try inode(folder.path("schema.sql")) == before)
    // A checkout that turned LF into CRLF holds the same schema.
    try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: schemaFile.url)
    #expect(try schemaFile.state(against: migrations) == .current)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
        "migrations", "schema.sql",
      ]
    )
  }

  /// git's autocrlf turns every line break into CR LF, those inside a multi-line string too:
  /// the file still holds the schema the migrations produce.
  @Test func aCRLFCheckoutOfAMultiLineStringIsCurrent() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_note.sql",
      "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT DEFAULT 'first line\nsecond line');\n"
    )
    let migrations = try MigrationSet(
      directory: folder.path("migrations"),
      displayPath: "migrations"
    )
    let schemaFile = file(folder)
    try schemaFile.write(producedBy: migrations)
    let text = try String(contentsOf: folder.path("schema.sql"), encoding: .utf8)
    #expect(text.contains("'first line\nsecond line'"))
    try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: schemaFile.url)
    #expect(try schemaFile.state(against: migrations) == .current)
  }

  @Test func aStaleFileIsNamedAtItsFirstDifferingLineAndReplacedKeepingItsMode() throws {
    let folder = try TemporaryDirectory()
    let migrations = try migrations(in: folder)
    let schemaFile = file(folder)
    try schemaFile.write(producedBy: migrations)
    try folder.write("migrations/0003_email.sql", "ALTER TABLE person ADD COLUMN email TEXT;\n")
    let newer = try MigrationSet(directory: folder.path("migrations"), displayPath: "migrations")
    let line = SchemaFile.header.split(separator: "\n").count + 2
    let stale = SchemaFileDifference(
      line: line,
      found: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);",
      expected: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT);"
    )
    #expect(try schemaFile.state(against: newer) == .differs(stale))
    #expect {
      try schemaFile.check(against: newer)
    } throws: { error in
      guard let error = error as? SchemaFileError else { return false }
      return error == .stale(path: "schema.sql", difference: stale)
        && error.message.hasPrefix("schema.sql:\(line) is not what the migrations produce")
        && error.remedies == [.writeSchemaFile]
    }
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o640],
      ofItemAtPath: schemaFile.url.path
    )
    #expect(try schemaFile.write(producedBy: newer) == .written)
    try schemaFile.check(against: newer)
    let mode = try FileManager.default.attributesOfItem(atPath: schemaFile.url.path)[
      .posixPermissions
    ]
    #expect(mode as? Int == 0o640)
  }

  @Test func theDatabaseSchemaIsWrittenAsItIsEvenWhenItDrifted() throws {
    let folder = try TemporaryDirectory()
    let migrations = try migrations(in: folder)
    let connection = try Connection(path: folder.path("app.sqlite3").path)
    try Migrator(migrations).migrate(connection)
    let schemaFile = file(folder)
    #expect(try schemaFile.write(schemaOf: connection) == .written)
    try schemaFile.check(against: migrations)
    try connection.execute("CREATE TABLE by_hand (x)")
    #expect(try schemaFile.write(schemaOf: connection) == .written)
    guard case .differs(let difference) = try schemaFile.state(against: migrations) else {
      Issue.record("a drifted database's schema is not what the migrations produce")
      return
    }
    #expect(difference.found == "CREATE TABLE by_hand (x);")
  }

  @Test func whatIsNotAFileStrataWroteIsNeverReplaced() throws {
    let folder = try TemporaryDirectory()
    let migrations = try migrations(in: folder)
    let notes = "# Notes\n"
    try folder.write("README.md", notes)
    let readme = file(folder, "README.md")
    #expect(throws: SchemaFileError.notWritten(path: "README.md", problem: .notWrittenByStrata)) {
      try readme.write(producedBy: migrations)
    }
    #expect(try String(contentsOf: readme.url, encoding: .utf8) == notes)
    // An empty file, or strata's own inspect dump, is replaced.
    try folder.write("empty.sql", "")
    #expect(try file(folder, "empty.sql").write(producedBy: migrations) == .written)
    try folder.write("dump.sql", try migrations.producedSchema().rendered(as: .sql))
    #expect(try file(folder, "dump.sql").write(producedBy: migrations) == .written)
  }

  @Test func pathsThatCannotHoldTheFileAreRefusedByName() throws {
    let folder = try TemporaryDirectory()
    let migrations = try migrations(in: folder)
    try FileManager.default.createDirectory(
      at: folder.path("dir"),
      withIntermediateDirectories: true
    )
    #expect(throws: SchemaFileError.notWritten(path: "dir", problem: .directory)) {
      try file(folder, "dir").write(producedBy: migrations)
    }
    #expect(throws: SchemaFileError.notRead(path: "dir", problem: .directory)) {
      try file(folder, "dir").state(against: migrations)
    }
    #expect(
      throws: SchemaFileError.notWritten(
        path: "db/schema.sql",
        problem: .folderMissing(folder: "db")
      )
    ) {
      try file(folder, "db/schema.sql").write(producedBy: migrations)
    }
    // No folder, no file: missing, not unreadable.
    #expect(try file(folder, "db/schema.sql").state(against: migrations) == .missing)
    try FileManager.default.createDirectory(
      at: folder.path("ro"),
      withIntermediateDirectories: true
    )
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555],
      ofItemAtPath: folder.path("ro").path
    )
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755],
        ofItemAtPath: folder.path("ro").path
      )
    }
    #expect(
      throws: SchemaFileError.notWritten(
        path: "ro/schema.sql",
        problem: .folderNotWritable(folder: "ro")
      )
    ) {
      try file(folder, "ro/schema.sql").write(producedBy: migrations)
    }
  }

  @Test func aLinkOutOfTheProjectIsNeitherReadNorWritten() throws {
    let outside = try TemporaryDirectory()
    let secret = try outside.write("secret.env", "TOKEN=abc\n")
    let project = try TemporaryDirectory()
    let migrations = try migrations(in: project)
    try FileManager.default.createSymbolicLink(
      atPath: project.path("schema.sql").path,
      withDestinationPath: secret.path
    )
    let problem = SchemaFileProblem.linkOutOfProject(
      target: try #require(realPath(secret.path)),
      project: project.url.path
    )
    #expect(throws: SchemaFileError.notRead(path: "schema.sql", problem: problem)) {
      try file(project).state(against: migrations)
    }
    #expect(throws: SchemaFileError.notWritten(path: "schema.sql", problem: problem)) {
      try file(project).write(producedBy: migrations)
    }
    #expect(try String(contentsOf: secret, encoding: .utf8) == "TOKEN=abc\n")
    // A link that stays in the project is written through: the link stays a link.
    try FileManager.default.removeItem(at: project.path("schema.sql"))
    try project.write("db/structure.sql", "")
    try FileManager.default.createSymbolicLink(
      atPath: project.path("schema.sql").path,
      withDestinationPath: "db/structure.sql"
    )
    #expect(try file(project).write(producedBy: migrations) == .written)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: project.path("schema.sql").path)
        == "db/structure.sql"
    )
    try file(project).check(against: migrations)
  }

  /// A replay that skips a statement cannot say what the migrations produce: the file is
  /// neither stale nor current, and nothing is written from it.
  @Test func aReplayThatSkipsAStatementComparesAndWritesNothing() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_a.sql",
      "CREATE TABLE a (x);\nATTACH DATABASE 'other.db' AS other;\n"
    )
    let migrations = try MigrationSet(directory: folder.path("migrations"), displayPath: "m")
    #expect {
      try file(folder).check(against: migrations)
    } throws: { error in
      guard case .notCompared("schema.sql", .replayIncomplete) = error as? SchemaFileError else {
        return false
      }
      return (error as? SchemaFileError)?.message.contains("is not known whether it is current")
        == true && (error as? SchemaFileError)?.remedies == [.withoutSchemaFile]
    }
    #expect {
      try file(folder).write(producedBy: migrations)
    } throws: { error in
      guard case .notProduced("schema.sql", .replayIncomplete) = error as? SchemaFileError else {
        return false
      }
      return true
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("schema.sql").path))
  }
}
