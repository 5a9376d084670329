import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata template --output PATH` writes a new file; it replaces an existing one only with
/// `--force`, and then only a template strata built or an empty file.
@Suite struct TemplateOutputTests {
  private static func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

  /// A user's database with rows, a text file and a migration file are never replaced, with or
  /// without --force.
  @Test(arguments: [false, true])
  func neverReplacesAFileStrataDidNotBuild(force: Bool) throws {
    let project = try Project(threeMigrations)
    try Connection(path: project.database.path).execute(
      "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')"
    )
    let notes = try project.dir.write("notes.txt", "my notes\n")
    let targets = [project.database, notes, project.dir.path("migrations/0001_a.sql")]
    for target in targets {
      let before = try Self.bytes(target)
      var arguments = ["template", "--output", target.path]
      if force { arguments.append("--force") }
      let result = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(result.exitCode == 1, "\(target.lastPathComponent): \(result.standardOutput)")
      #expect(result.standardError.contains("left it untouched"), "\(result.standardError)")
      #expect(result.standardError.contains("Help: "), "\(result.standardError)")
      #expect(try Self.bytes(target) == before, "\(target.lastPathComponent) was changed")
    }
    #expect(
      try DatabaseProbe.rows(project.database, "SELECT body FROM notes") == [[.text("keep me")]]
    )
  }

  /// Rebuilding a template needs --force; an empty file may be replaced too.
  @Test func replacesATemplateOrAnEmptyFileOnlyWithForce() throws {
    let project = try Project(threeMigrations)
    #expect(try project.strata("template", "--output", "t.sqlite3").exitCode == 0)
    try project.write("0004_d.sql", "-- migrate:up\nCREATE TABLE d (x);\n")

    let again = try project.strata("template", "--output", "t.sqlite3")
    #expect(again.exitCode == 1)
    #expect(again.standardError.contains("already exists"), "\(again.standardError)")
    #expect(again.standardError.contains("--force"), "\(again.standardError)")
    let template = project.dir.path("t.sqlite3")
    #expect(try DatabaseProbe.integer(template, "SELECT max(version) FROM strata_migrations") == 3)

    let forced = try project.strata("template", "--output", "t.sqlite3", "--force")
    #expect(forced.exitCode == 0, "\(forced.standardError)")
    #expect(try DatabaseProbe.integer(template, "SELECT max(version) FROM strata_migrations") == 4)

    try Data().write(to: project.dir.path("empty.sqlite3"))
    #expect(try project.strata("template", "--output", "empty.sqlite3").exitCode == 1)
    let empty = try project.strata("template", "--output", "empty.sqlite3", "--force")
    #expect(empty.exitCode == 0, "\(empty.standardError)")
  }

  /// A database created from a template (its history stamped with real times) holds the app's
  /// data: never a template to replace.
  @Test func aDatabaseInitialisedFromATemplateIsNotATemplate() throws {
    let project = try Project(threeMigrations)
    #expect(try project.strata("template", "--output", "t.sqlite3").exitCode == 0)
    let initialised = try project.strata(
      "init",
      "--database",
      "app.sqlite3",
      "--template",
      "t.sqlite3"
    )
    try #require(initialised.exitCode == 0, "\(initialised.standardError)")
    try Connection(path: project.database.path).execute("INSERT INTO a VALUES ('row')")
    let before = try DatabaseFingerprint.of(project.database)
    let result = try project.strata("template", "--output", "app.sqlite3", "--force")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("not exactly what its migrations build"),
      "\(result.standardError)"
    )
    #expect(try DatabaseFingerprint.of(project.database) == before)
  }

  /// A journal with changes beside the path would be read as part of the new file: refused,
  /// whether the path exists or not, and left in place.
  @Test(arguments: ["-wal", "-journal"])
  func refusesWhenAJournalWithChangesIsBeside(_ suffix: String) throws {
    let project = try Project(threeMigrations)
    let journal = try project.dir.write("t.sqlite3\(suffix)", String(repeating: "x", count: 4096))
    for force in [false, true] {
      var arguments = ["template", "--output", "t.sqlite3"]
      if force { arguments.append("--force") }
      let result = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains("t.sqlite3\(suffix) exists although"),
        "\(result.standardError)"
      )
      #expect(!FileManager.default.fileExists(atPath: project.dir.path("t.sqlite3").path))
      #expect(try Data(contentsOf: journal).count == 4096)
    }
  }

  /// Empty leftovers beside the path (an empty -wal, a -shm) are removed, not paired with the
  /// new template; a template in WAL mode is written with no -wal beside it.
  @Test func removesEmptyLeftoversAndLeavesNoWAL() throws {
    let project = try Project(threeMigrations)
    try project.write(
      "0004_wal.sql",
      "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n"
    )
    try Data().write(to: project.dir.path("t.sqlite3-wal"))
    try Data(repeating: 1, count: 100).write(to: project.dir.path("t.sqlite3-shm"))
    let result = try project.strata("template", "--output", "t.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(isWALDatabase(at: project.dir.path("t.sqlite3").path))
    for suffix in ["-wal", "-shm", "-journal"] {
      #expect(!FileManager.default.fileExists(atPath: project.dir.path("t.sqlite3\(suffix)").path))
    }
  }
}
