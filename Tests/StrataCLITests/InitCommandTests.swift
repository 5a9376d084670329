import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct InitCommandTests {
  @Test func initFromTheTemplateThenAgainChangesNothing() throws {
    let project = try Project.sample()
    let template = try project.strata("template")
    #expect(template.exitCode == 0, "\(template.standardError)")
    #expect(template.standardOutput.contains("Wrote seeds/template.sqlite3 at version 5"))

    let home = ["HOME": project.dir.url.path]
    let first = try project.strata("init", environment: home)
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(
      first.standardOutput.contains(
        "Created Documents/data.sqlite3 from the template seeds/template.sqlite3 (version 5)."
      )
    )
    #expect(first.standardOutput.contains("Loaded seeds/person_info.csv."))
    #expect(first.standardOutput.contains("Loaded seeds/student.csv."))
    #expect(first.standardOutput.contains("See 'strata status'"))
    let database = project.dir.path("Documents/data.sqlite3")
    #expect(try DatabaseProbe.integer(database, "SELECT max(version) FROM strata_migrations") == 5)
    #expect(
      try DatabaseProbe.rows(database, "SELECT age FROM person_info WHERE name = 'Peter'")
        == [[.integer(22)]]
    )
    #expect(try DatabaseProbe.integer(database, "SELECT count(*) FROM strata_seeds") == 2)

    let bytes = try Data(contentsOf: database)
    let second = try project.strata("init", environment: home)
    #expect(second.exitCode == 0)
    #expect(second.standardOutput.contains("is up to date at version 5; nothing was changed."))
    #expect(try Data(contentsOf: database) == bytes)

    try project.write("0006_add_note.sql", "ALTER TABLE person_info ADD COLUMN note TEXT;")
    let third = try project.strata("init", environment: home)
    #expect(third.standardOutput.contains("Applied 1 migration(s): 6."))
  }

  @Test func initWithoutTemplateBuildsTheDatabaseFromItsMigrations() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("init", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Created app.sqlite3 from its migrations."))
    #expect(result.standardOutput.contains("Applied 3 migration(s): 1, 2, 3."))
    #expect(try project.versions() == [1, 2, 3])
  }

  @Test func namedSeedsFolderThatDoesNotExistIsAnError() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("init", "--database", "app.sqlite3", "--seeds", "nope")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("seeds folder nope does not exist"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func explicitTemplateThatDoesNotExistIsAnError() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("init", "--database", "app.sqlite3", "--template", "nope.db")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("/nope.db does not exist; no database was created")
    )
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func databaseNewerThanTheMigrationsIsExplained() throws {
    let project = try Project(threeMigrations)
    try project.strata("init", "--database", "app.sqlite3")
    try FileManager.default.removeItem(at: project.dir.path("migrations/0003_c.sql"))
    let result = try project.strata("init", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("that this app does not know (its newest is 2)"))
    #expect(result.standardError.contains("Help: Update the app"))
  }

  @Test func databasePathThatIsADirectoryCreatesNothingInside() throws {
    let project = try Project(threeMigrations)
    let folder = project.dir.path("Documents")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let result = try project.strata("init", "--database", "Documents")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("is a directory"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// An app and its extension launching together: one copies, the other migrates nothing.
  @Test(arguments: [true, false])
  func twoInitProcessesAtOnceMakeOneDatabase(withTemplate: Bool) throws {
    let project = try Project(threeMigrations)
    if withTemplate { #expect(try project.strata("template").exitCode == 0) }
    for round in 0..<8 {
      let database = "round\(round).sqlite3"
      let first = try StrataProcess.start(["init", "--database", database], in: project.dir.url)
      let second = try StrataProcess.start(["init", "--database", database], in: project.dir.url)
      first.waitUntilExit()
      second.waitUntilExit()
      #expect(first.terminationStatus == 0 && second.terminationStatus == 0, "round \(round)")
      let url = project.dir.path(database)
      #expect(try DatabaseProbe.integer(url, "SELECT count(*) FROM strata_migrations") == 3)
      #expect(try DatabaseProbe.rows(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }
}

@Suite struct InitFolderTests {
  @Test func explicitDatabaseInAMissingFolderIsAnError() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("init", "--database", "nope/app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("does not exist; nothing was created"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("nope").path))
  }
}
