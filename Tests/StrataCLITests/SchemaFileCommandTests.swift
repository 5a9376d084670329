import Foundation
import Strata
import StrataTestSupport
import Testing

/// The schema file through the real binary: `migrate`, `rollback` and `init` write it after a
/// change (never otherwise), `status --check` fails when it is not what the migrations produce,
/// `strata schema` rewrites it, and every bad path or setting is said as what it is.
@Suite struct SchemaFileCommandTests {
  static let settings = "[schema]\nfile = \"db/schema.sql\"\n"

  /// The sample project with `strata.toml` naming `db/schema.sql`, and the folder `db`.
  private func project() throws -> Project {
    let project = try Project.sample()
    try project.dir.write("strata.toml", Self.settings)
    try FileManager.default.createDirectory(
      at: project.dir.path("db"),
      withIntermediateDirectories: true
    )
    return project
  }

  private func schemaFile(_ project: Project, _ name: String = "db/schema.sql") throws -> String {
    try String(contentsOf: project.dir.path(name), encoding: .utf8)
  }

  @Test func migrateRollbackAndSchemaKeepTheFileCurrentAndOnlyAfterAChange() throws {
    let project = try project()
    let partial = try project.strata("migrate", "--database", "app.sqlite3", "--to", "4")
    #expect(partial.exitCode == 0, "\(partial.standardError)")
    #expect(
      partial.standardOutput.hasSuffix(
        "app.sqlite3 is now at version 4 (1 still pending).\n"
          + "Wrote the schema file db/schema.sql (the schema of app.sqlite3).\n"
      )
    )
    let behind = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(behind.exitCode == 1)
    #expect(behind.standardOutput.contains("Schema:     db/schema.sql (stale from line 12)\n"))
    #expect(
      behind.standardOutput.contains(
        "Warning: db/schema.sql:12 is not what the migrations produce: the file has "
          + "`CREATE TABLE person_info (`, the migrations give `CREATE TABLE \"person_info\" (`\n"
          + "Help: Run 'strata schema' to write it from the migrations, review the change and "
          + "commit it beside the migrations.\n"
      ),
      "\(behind.standardOutput)"
    )
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let current = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(current.exitCode == 0, "\(current.standardOutput)")
    #expect(current.standardOutput.contains("Schema:     db/schema.sql (current: what the"))
    #expect(!current.standardOutput.contains("Warning"))
    // The database's dump is the migrations' dump, byte for byte: nothing to rewrite.
    let same = try project.strata("schema")
    #expect(
      same.standardOutput
        == "db/schema.sql already holds the schema the migrations produce; it was not rewritten.\n"
    )

    // A run that changes nothing leaves the file alone, even a stale one.
    let stale = "-- strata schema file: an older one\n"
    try project.dir.write("db/schema.sql", stale)
    for arguments in [
      ["migrate"], ["migrate", "--dry-run", "--to", "3"], ["rollback", "--dry-run"],
    ] {
      let run = try StrataProcess.run(
        arguments + ["--database", "app.sqlite3"],
        in: project.dir.url
      )
      #expect(run.exitCode == 0, "\(arguments): \(run.standardError)")
      #expect(!run.standardOutput.contains("schema file"), "\(arguments)")
    }
    #expect(try schemaFile(project) == stale)
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.exitCode == 0)
    #expect(json.standardOutput.contains(#""line" : 1,"#))
    #expect(json.standardOutput.contains(#""state" : "stale""#))

    let back = try project.strata("rollback", "--database", "app.sqlite3", "--format", "json")
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(
      back.standardOutput.contains(
        "\"schemaFile\" : {\n    \"path\" : \"db/schema.sql\",\n    \"result\" : \"written\"\n  }"
      )
    )
    #expect(try project.strata("schema", "--check").exitCode == 1)
    let rewrite = try project.strata("schema")
    #expect(rewrite.standardOutput == "Wrote db/schema.sql: the schema the migrations produce.\n")
    let check = try project.strata("schema", "--check")
    #expect(check.exitCode == 0, "\(check.standardError)")
    #expect(
      check.standardOutput
        == "db/schema.sql is current: it holds the schema the migrations produce.\n"
    )
  }

  @Test func initWritesTheFileWhenItSetsUpTheDatabaseAndAMissingFileFailsTheCheck() throws {
    let project = try project()
    let missing = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(missing.standardOutput.contains(#""state" : "missing""#))
    let setup = try project.strata("init", "--database", "app.sqlite3")
    #expect(setup.exitCode == 0, "\(setup.standardError)")
    #expect(
      setup.standardOutput.hasSuffix(
        "Wrote the schema file db/schema.sql (the schema of app.sqlite3).\n"
      )
    )
    try FileManager.default.removeItem(at: project.dir.path("db/schema.sql"))
    let again = try project.strata("init", "--database", "app.sqlite3", "--format", "json")
    #expect(again.exitCode == 0)
    #expect(again.standardOutput.contains(#""result" : "skipped""#))
    let check = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(check.exitCode == 1)
    #expect(check.standardOutput.contains("Schema:     db/schema.sql (missing)"))
    #expect(
      check.standardOutput.contains(
        "Warning: the schema file db/schema.sql does not exist, so it does not show the schema "
          + "the migrations produce\n"
      )
    )
    #expect(
      try project.strata("status", "--database", "app.sqlite3", "--check", "--no-schema-file")
        .exitCode == 0
    )
    // --settings names another file; its paths are relative to its own folder.
    try project.dir.write("config/strata.toml", "[schema]\nfile = \"../other.sql\"\n")
    let back = try project.strata(
      "rollback",
      "--database",
      "app.sqlite3",
      "--settings",
      "config/strata.toml"
    )
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(
      back.standardOutput.hasSuffix(
        "Wrote the schema file other.sql (the schema of app.sqlite3).\n"
      )
    )
    #expect(try schemaFile(project, "other.sql").contains("CREATE TABLE student"))
  }

  /// Each path the file cannot be written at: the database is migrated all the same, and the
  /// error says so, why, and the command that writes the file from it.
  @Test(arguments: [
    ("dir", "it is a directory, not a file", "Name another path with --schema-file"),
    ("nope/schema.sql", "its folder nope does not exist", "Create nope first (mkdir -p)"),
    ("ro/schema.sql", "its folder ro is not writable", "Make the folder writable (chmod u+w ro)"),
    ("link.sql", "it leads through a symbolic link to ", "Name the file's real path"),
  ])
  func aFileThatCannotBeWrittenSaysTheDatabaseWasMigrated(
    path: String,
    reason: String,
    help: String
  ) throws {
    let project = try Project.sample()
    let outside = try TemporaryDirectory()
    let secret = try outside.write("secret.env", "TOKEN=abc\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("link.sql").path,
      withDestinationPath: secret.path
    )
    for folder in ["dir", "ro"] {
      try FileManager.default.createDirectory(
        at: project.dir.path(folder),
        withIntermediateDirectories: true
      )
    }
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555],
      ofItemAtPath: project.dir.path("ro").path
    )
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755],
        ofItemAtPath: project.dir.path("ro").path
      )
    }
    let run = try project.strata("migrate", "--database", "app.sqlite3", "--schema-file", path)
    #expect(run.exitCode == 1)
    #expect(run.standardOutput.hasSuffix("app.sqlite3 is now at version 5.\n"))
    #expect(
      run.standardError.hasPrefix(
        "Error: app.sqlite3 was migrated to version 5, but the schema file \(path) was not "
          + "written: \(reason)"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("\nHelp: \(help)"), "\(run.standardError)")
    #expect(
      run.standardError.hasSuffix(
        "then write it from the database with 'strata schema --database app.sqlite3 "
          + "--schema-file \(path)' (no migration runs again).\n"
      ),
      "\(run.standardError)"
    )
    #expect(try project.versions() == [1, 2, 3, 4, 5])
    #expect(try String(contentsOf: secret, encoding: .utf8) == "TOKEN=abc\n")
  }

  /// A bad `[schema]` is an error at its line and column before anything runs, for every
  /// command that reads it.
  @Test func aBadSchemaSectionStopsEveryCommandBeforeItRuns() throws {
    let project = try Project.sample()
    for (settings, error) in [
      ("[schema]\nfiel = \"schema.sql\"\n", "strata.toml:2:1: unknown key fiel in [schema]"),
      ("[schema]\nfile = true\n", "strata.toml:2:1: file is a boolean"),
    ] {
      try project.dir.write("strata.toml", settings)
      for command in ["migrate", "rollback", "status", "init", "schema"] {
        let run = try StrataProcess.run(
          [command, "--database", "app.sqlite3"],
          in: project.dir.url
        )
        #expect(run.exitCode == 1, "\(command)")
        #expect(
          run.standardError.hasPrefix("Error: \(error); nothing was changed\n"),
          "\(command): \(run.standardError)"
        )
      }
    }
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  /// A replay that skips a statement cannot say what the migrations produce: the check fails
  /// saying so, without calling the file stale or current.
  @Test func aReplayThatSkipsAStatementFailsTheCheckWithoutAVerdict() throws {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);\nATTACH DATABASE 'other.db' AS other;\n"
    ])
    #expect(
      try project.strata("migrate", "--database", "app.sqlite3", "--schema-file", "schema.sql")
        .exitCode == 0
    )
    let check = try project.strata(
      "status",
      "--database",
      "app.sqlite3",
      "--check",
      "--schema-file",
      "schema.sql"
    )
    #expect(check.exitCode == 1)
    #expect(check.standardOutput.contains("Schema:     schema.sql (not compared)\n"))
    #expect(
      check.standardOutput.contains(
        "Warning: the schema file schema.sql could not be compared with what the migrations "
          + "produce, so it is not known whether it is current: replaying migrations into an "
          + "in-memory database skipped 1 statement(s)"
      ),
      "\(check.standardOutput)"
    )
    #expect(check.standardOutput.contains("pass --no-schema-file to leave it out"))
    #expect(!check.standardOutput.contains("stale"))
    #expect(!check.standardOutput.contains("(current"))
  }

  @Test func fleetsLeaveTheFileOutAndConflictingOptionsAreUsageErrors() throws {
    let project = try project()
    for name in ["one", "two"] {
      #expect(
        try project.strata(
          "migrate",
          "--database",
          "\(name).sqlite3",
          "--to",
          "1",
          "--no-schema-file"
        ).exitCode == 0
      )
    }
    let fleet = try project.strata("migrate", "--databases", "*.sqlite3")
    #expect(fleet.exitCode == 0, "\(fleet.standardError)")
    #expect(try project.strata("status", "--databases", "*.sqlite3", "--check").exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("db/schema.sql").path))
    try project.dir.write("other.toml", "[seeds]\n")
    for arguments in [
      ["migrate", "--databases", "*.sqlite3", "--schema-file", "s.sql"],
      ["status", "--databases", "*.sqlite3", "--schema-file", "s.sql"],
      ["migrate", "--schema-file", "s.sql", "--no-schema-file"],
      ["schema", "--settings", "other.toml"],
      ["schema", "--check", "--database", "one.sqlite3"],
    ] {
      let run = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(run.exitCode == 64, "\(arguments): \(run.standardError)")
    }
  }
}
