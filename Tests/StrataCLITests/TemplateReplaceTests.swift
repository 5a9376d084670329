import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata template --output PATH --force` replaces a database only when its content is
/// exactly what the migrations it records build: never a template (or a `cp` of one) that
/// holds a row, a table, an index or a setting strata did not put there, and never one whose
/// migration files are gone or edited, since then nothing can vouch for its content.
@Suite struct TemplateReplaceTests {
  private static func force(_ project: Project, _ output: String = "a.db") throws -> ProcessResult {
    try project.strata("template", "--output", output, "--force")
  }

  /// Builds `a.db` from the sample project, lets `change` write into it with the sqlite3 C API
  /// as an app would, then checks `--force` refuses, names `named`, and leaves every byte.
  private static func expectRefused(
    named: String,
    _ change: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let project = try Project.sample()
    let template = project.dir.path("a.db")
    try #require(try project.strata("template", "--output", "a.db").exitCode == 0)
    try Connection(path: template.path).execute(change)
    let before = try Data(contentsOf: template)
    let result = try force(project)
    #expect(result.exitCode == 1, "\(result.standardOutput)", sourceLocation: sourceLocation)
    #expect(
      result.standardError.contains("not exactly what its migrations build: \(named) differs"),
      "\(result.standardError)",
      sourceLocation: sourceLocation
    )
    #expect(
      result.standardError.contains("strata wrote nothing and left it untouched"),
      "\(result.standardError)",
      sourceLocation: sourceLocation
    )
    #expect(
      result.standardError.contains("move it away yourself"),
      "\(result.standardError)",
      sourceLocation: sourceLocation
    )
    #expect(try Data(contentsOf: template) == before, sourceLocation: sourceLocation)
  }

  /// The reviewer's repro: a row inserted into the template (as into a dev database made by
  /// `cp` of it) is never replaced away.
  @Test func aTemplateThatNowHoldsARowIsNotReplaced() throws {
    let project = try Project.sample()
    try #require(try project.strata("template", "--output", "a.db").exitCode == 0)
    // A dev database made by cp of the template: its history still carries the 1970 times.
    try FileManager.default.copyItem(at: project.dir.path("a.db"), to: project.dir.path("dev.db"))
    for name in ["a.db", "dev.db"] {
      let path = project.dir.path(name)
      try Connection(path: path.path).execute(
        "INSERT INTO student (stuID, stuName) VALUES ('s1', 'bob')"
      )
      let result = try Self.force(project, name)
      #expect(result.exitCode == 1, "\(name): \(result.standardOutput)")
      #expect(result.standardError.contains("table student differs"), "\(result.standardError)")
      #expect(result.standardError.contains("Help: "), "\(result.standardError)")
      #expect(!result.standardOutput.contains("Wrote"), "\(result.standardOutput)")
      #expect(
        try DatabaseProbe.rows(path, "SELECT stuID, stuName FROM student")
          == [[.text("s1"), .text("bob")]]
      )
    }
  }

  /// Every kind of content strata did not put there is refused, naming what differs: rows
  /// changed or deleted, a table, an index or a view added, a header value set.
  @Test func anyChangeToTheContentIsRefused() throws {
    try Self.expectRefused(
      named: "table strata_migrations",
      "UPDATE strata_migrations SET name = 'renamed' WHERE version = 1"
    )
    try Self.expectRefused(
      named: "table strata_migrations",
      "UPDATE strata_migrations SET duration_ms = 1 WHERE version = 5"
    )
    try Self.expectRefused(named: "table notes", "CREATE TABLE notes (body TEXT)")
    try Self.expectRefused(named: "index by_age", "CREATE INDEX by_age ON person_info (age)")
    try Self.expectRefused(named: "view people", "CREATE VIEW people AS SELECT 1")
    try Self.expectRefused(named: "its user_version", "PRAGMA user_version = 7")
    try Self.expectRefused(named: "table strata_seeds", "CREATE TABLE strata_seeds (x)")
  }

  /// Rows a migration put there count as the template's own; deleting or editing one is a
  /// change, so is a row in a WITHOUT ROWID table.
  @Test func rowsTheMigrationsInsertedMustBeUnchanged() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE kinds (k TEXT PRIMARY KEY) WITHOUT ROWID;\n"
        + "INSERT INTO kinds VALUES ('x'), ('y');\nCREATE TABLE items (v);\n"
        + "INSERT INTO items VALUES (1), (2);\n"
    ])
    let template = project.dir.path("t.db")
    for change in [
      "DELETE FROM items WHERE v = 2", "UPDATE items SET v = 3 WHERE v = 2",
      "UPDATE kinds SET k = 'z' WHERE k = 'y'", "INSERT INTO kinds VALUES ('w')",
    ] {
      try? FileManager.default.removeItem(at: template)
      try #require(try project.strata("template", "--output", "t.db").exitCode == 0)
      try Connection(path: template.path).execute(change)
      let before = try Data(contentsOf: template)
      let result = try Self.force(project, "t.db")
      #expect(result.exitCode == 1, "\(change): \(result.standardOutput)")
      let table = change.contains("kinds") ? "kinds" : "items"
      #expect(result.standardError.contains("table \(table) differs"), "\(result.standardError)")
      #expect(try Data(contentsOf: template) == before, "\(change)")
    }
  }

  /// A template whose migration files are gone or edited cannot be verified: refused, saying
  /// so and naming the migration.
  @Test func aTemplateWhoseMigrationsCannotBeRebuiltIsNotReplaced() throws {
    let project = try Project(threeMigrations)
    let template = project.dir.path("t.db")
    try #require(try project.strata("template", "--output", "t.db").exitCode == 0)
    let before = try Data(contentsOf: template)
    try project.write("0002_b.sql", "-- migrate:up\nCREATE TABLE b (x, y);\n")
    let edited = try Self.force(project, "t.db")
    #expect(edited.exitCode == 1)
    #expect(
      edited.standardError.contains("records migration 2 (b) with a checksum that differs"),
      "\(edited.standardError)"
    )
    #expect(edited.standardError.contains("cannot verify"), "\(edited.standardError)")
    #expect(try Data(contentsOf: template) == before)

    try FileManager.default.removeItem(at: project.dir.path("migrations/0002_b.sql"))
    let missing = try Self.force(project, "t.db")
    #expect(missing.exitCode == 1)
    #expect(
      missing.standardError.contains("records migration 2 (b), whose file is not in migrations"),
      "\(missing.standardError)"
    )
    #expect(try Data(contentsOf: template) == before)
  }

  /// A template SQLite rewrote (VACUUM) holds the same content in other bytes: still replaced;
  /// so is one built by older migrations, with the migrations added since.
  @Test func aRewrittenOrOlderTemplateIsReplaced() throws {
    let project = try Project.sample()
    let template = project.dir.path("a.db")
    try #require(try project.strata("template", "--output", "a.db").exitCode == 0)
    let built = try Data(contentsOf: template)
    try Connection(path: template.path).execute("PRAGMA page_size = 8192; VACUUM")
    try #require(try Data(contentsOf: template) != built)
    let rewritten = try Self.force(project)
    #expect(rewritten.exitCode == 0, "\(rewritten.standardError)")
    #expect(try Data(contentsOf: template) == built)

    try project.write("0006_more.sql", "-- migrate:up\nCREATE TABLE more (x);\n")
    let newer = try Self.force(project)
    #expect(newer.exitCode == 0, "\(newer.standardError)")
    #expect(try DatabaseProbe.integer(template, "SELECT max(version) FROM strata_migrations") == 6)
  }
}

/// `template --force` keeps the permissions of the file it replaces (never wider); a new file
/// follows the umask.
@Suite struct TemplateModeTests {
  private static func mode(_ url: URL) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?
      .intValue ?? -1
  }

  private static func strata(
    _ umask: String,
    _ project: Project,
    _ arguments: String...
  ) throws
    -> ProcessResult
  {
    try StrataProcess.run(
      ["template"] + arguments,
      in: project.dir.url,
      launcher: ["/bin/sh", "-c", "umask \(umask); exec \"$0\" \"$@\""]
    )
  }

  /// A 0600 (or 0640, or read-only) template or empty file replaced under umask 022 keeps its
  /// mode.
  @Test(arguments: [0o600, 0o640, 0o400])
  func replacingKeepsTheOldMode(_ old: Int) throws {
    let project = try Project(threeMigrations)
    for name in ["t.db", "empty.db"] {
      let path = project.dir.path(name)
      if name == "empty.db" {
        try Data().write(to: path)
      } else {
        try #require(try Self.strata("022", project, "--output", name).exitCode == 0)
      }
      try FileManager.default.setAttributes([.posixPermissions: old], ofItemAtPath: path.path)
      let result = try Self.strata("022", project, "--output", name, "--force")
      #expect(result.exitCode == 0, "\(name): \(result.standardError)")
      #expect(try DatabaseProbe.integer(path, "SELECT max(version) FROM strata_migrations") == 3)
      let mode = try Self.mode(path)
      #expect(mode == old, "\(name): \(String(mode, radix: 8))")
    }
  }

  /// A new file follows the umask.
  @Test(arguments: [("077", 0o600), ("022", 0o644)])
  func aNewFileFollowsTheUmask(_ umask: String, _ expected: Int) throws {
    let project = try Project(threeMigrations)
    let result = try Self.strata(umask, project, "--output", "t.db")
    #expect(result.exitCode == 0, "\(result.standardError)")
    let mode = try Self.mode(project.dir.path("t.db"))
    #expect(mode == expected, "\(String(mode, radix: 8))")
  }
}
