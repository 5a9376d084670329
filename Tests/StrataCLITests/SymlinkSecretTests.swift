import Foundation
import Strata
import StrataTestSupport
import Testing

/// A migration or seed file that is a symbolic link out of its folder (to a `.env`, say) was
/// followed, and `migrate` and `--dry-run` printed the secret. Such links are refused unless
/// the user passes --follow-symlinks.
@Suite struct SymlinkSecretTests {
  static let secret = "API_TOKEN=hunter2-very-secret"

  /// The sample project with `.env` beside the migrations folder and a link to it.
  private static func projectWithLinkedSecret() throws -> Project {
    let project = try Project.sample()
    try project.dir.write(".env", secret + "\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("migrations/0006_settings.sql").path,
      withDestinationPath: "../.env"
    )
    return project
  }

  @Test(arguments: [["migrate"], ["migrate", "--dry-run"], ["status"], ["validate"], ["init"]])
  func aMigrationLinkedOutOfItsFolderIsRefused(_ command: [String]) throws {
    let project = try Self.projectWithLinkedSecret()
    let result = try StrataProcess.run(
      command + ["--database", "app.sqlite3"],
      in: project.dir.url,
      timeout: 60
    )
    #expect(result.exitCode == 1)
    #expect(!result.standardOutput.contains("hunter2"))
    #expect(!result.standardError.contains("hunter2"))
    #expect(result.standardError.contains("migrations/0006_settings.sql"))
    #expect(result.standardError.contains("outside the folder"))
    #expect(result.standardError.contains("--follow-symlinks"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func followSymlinksReadsTheLinkedFile() throws {
    let project = try Project.sample()
    try project.dir.write("shared/0006_extra.sql", "CREATE TABLE extra (id INTEGER PRIMARY KEY);\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("migrations/0006_extra.sql").path,
      withDestinationPath: "../shared/0006_extra.sql"
    )
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 1)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--follow-symlinks")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6])
  }

  @Test func aLinkThatStaysInsideTheFolderIsRead() throws {
    let project = try Project.sample()
    try project.dir.write("migrations/shared/extra.sql", "CREATE TABLE extra (id INTEGER);\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("migrations/0006_extra.sql").path,
      withDestinationPath: "shared/extra.sql"
    )
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6])
  }

  @Test func aSeedLinkedOutOfItsFolderIsRefused() throws {
    let project = try Project.sample()
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.dir.write("private/people.csv", "id,name\n1,hunter2\n")
    try FileManager.default.removeItem(at: project.dir.path("seeds/person_info.csv"))
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("seeds/person_info.csv").path,
      withDestinationPath: "../private/people.csv"
    )
    let result = try project.strata("seed", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("seeds/person_info.csv"))
    #expect(result.standardError.contains("outside the folder"))
    #expect(try DatabaseProbe.rows(project.database, "SELECT * FROM person_info").isEmpty)
  }

  /// With --follow-symlinks the file is read; a failing statement is quoted only up to its
  /// first 200 characters, so a secret further on never reaches the terminal.
  @Test func anErrorQuotesAtMostTheFirst200CharactersOfTheStatement() throws {
    let project = try Project.sample()
    let padding = String(repeating: "X", count: 250)
    try project.dir.write(".env", "NOT_SQL \(padding) \(Self.secret);\n")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("migrations/0006_settings.sql").path,
      withDestinationPath: "../.env"
    )
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--follow-symlinks")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("0006_settings.sql:1"))
    #expect(result.standardError.contains("NOT_SQL"))
    #expect(!result.standardError.contains("hunter2"))
  }
}
