import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata.toml` through the real `strata seed` and `strata init`: each file's options reach
/// the ledger, `--settings` names another file, and a bad file changes nothing.
@Suite struct SettingsCommandTests {
  static let settings = """
    [seeds]
    null = ["NA"]

    [seeds."student.csv"]
    null = ["NA", "-"]
    encoding = "utf-8"
    """

  private func options(_ database: URL) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(database, "SELECT file, options FROM strata_seeds ORDER BY rowid")
  }

  @Test func seedRecordsEachFilesOptionsFromStrataToml() throws {
    let project = try Project.sample()
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.dir.write("strata.toml", Self.settings)
    let result = try project.strata("seed", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      try options(project.database) == [
        [.text("person_info.csv"), .text(#"null = ["NA"]"#)],
        [.text("student.csv"), .text(#"null = ["-", "NA"]"#)],
      ]
    )
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM student") == 4)
  }

  @Test func settingsNamesAnotherFileAndAMissingNamedFileIsAnError() throws {
    let project = try Project.sample()
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.dir.write("strata.toml", "[seeds]\nnull = [\"ignored\"]\n")
    try project.dir.write("config/other.toml", "[seeds.\"person_info.csv\"]\nnull = [\"?\"]\n")
    let result = try project.strata(
      "seed",
      "seeds/person_info.csv",
      "--database",
      "app.sqlite3",
      "--settings",
      "config/other.toml"
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try options(project.database) == [[.text("person_info.csv"), .text(#"null = ["?"]"#)]])

    let before = try Data(contentsOf: project.database)
    let missing = try project.strata(
      "seed",
      "--database",
      "app.sqlite3",
      "--settings",
      "nope.toml"
    )
    #expect(missing.exitCode == 1)
    #expect(
      missing.standardError.contains(
        "Error: the settings file nope.toml does not exist; nothing was changed"
      )
    )
    #expect(try Data(contentsOf: project.database) == before)
    let empty = try project.strata("seed", "--database", "app.sqlite3", "--settings=")
    #expect(empty.exitCode == 64)
  }

  /// `strata seed` of the migrated sample project with `settings` as its strata.toml: it
  /// fails (exit 1) and leaves the database as it was.
  private func failingSeed(_ project: Project, settings: String) throws -> ProcessResult {
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let before = try Data(contentsOf: project.database)
    try project.dir.write("strata.toml", settings)
    let result = try project.strata("seed", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(try Data(contentsOf: project.database) == before)
    return result
  }

  @Test func aBadSettingsFileIsAnErrorAtItsLineAndNothingIsSeeded() throws {
    let project = try Project.sample()
    let result = try failingSeed(
      project,
      settings: "[seeds]\nnull = [\"NA\"]\ndelimeter = \";\"\n"
    )
    #expect(
      result.standardError.contains(
        "Error: strata.toml:3:1: unknown key delimeter in [seeds]; nothing was changed"
      )
    )
    #expect(
      result.standardError.contains(
        "Help: Fix line 3: the keys of a seeds section are null, delimiter, encoding, columns"
      )
    )
  }

  @Test func aMisspelledSeedFileIsAnErrorNamingIt() throws {
    let project = try Project.sample()
    let result = try failingSeed(
      project,
      settings: "\n[seeds.\"students.csv\"]\nnull = [\"NA\"]\n"
    )
    #expect(
      result.standardError.contains(
        "Error: strata.toml:2: the settings name the seed file students.csv, which is not in "
          + "seeds; nothing was changed"
      )
    )

    let initResult = try project.strata("init", "--database", "new.sqlite3")
    #expect(initResult.exitCode == 1)
    #expect(initResult.standardError.contains("the seed file students.csv, which is not in seeds"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("new.sqlite3").path))
  }

  @Test func initReadsTheSettingsAndLoadsAFileAgainWhenItsOptionsChange() throws {
    let project = try Project.sample()
    try project.dir.write("strata.toml", Self.settings)
    let first = try project.strata("init", "--database", "app.sqlite3")
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("Loaded seeds/student.csv."))
    #expect(
      try options(project.database) == [
        [.text("person_info.csv"), .text(#"null = ["NA"]"#)],
        [.text("student.csv"), .text(#"null = ["-", "NA"]"#)],
      ]
    )
    let again = try project.strata("init", "--database", "app.sqlite3")
    #expect(again.standardOutput.contains("nothing was changed"), "\(again.standardOutput)")

    // One file's options change: that file, and only it, loads again.
    try project.dir.write(
      "strata.toml",
      Self.settings.replacingOccurrences(of: #"null = ["NA", "-"]"#, with: #"null = ["NA", "--"]"#)
    )
    let changed = try project.strata("init", "--database", "app.sqlite3")
    #expect(changed.exitCode == 0, "\(changed.standardError)")
    #expect(changed.standardOutput.contains("Loaded seeds/student.csv."))
    #expect(!changed.standardOutput.contains("Loaded seeds/person_info.csv."))
    #expect(
      try options(project.database).last == [.text("student.csv"), .text(#"null = ["--", "NA"]"#)]
    )

    // Without the settings file, the defaults: each file loads again, recorded with none.
    try FileManager.default.removeItem(at: project.dir.path("strata.toml"))
    let defaults = try project.strata("init", "--database", "app.sqlite3")
    #expect(defaults.standardOutput.contains("Loaded seeds/person_info.csv."))
    #expect(try options(project.database).suffix(2).map { $0[1] } == [.text(""), .text("")])
  }

  @Test func initWithABadSettingsFileCreatesNothing() throws {
    let project = try Project.sample()
    try project.dir.write("strata.toml", "[seeds]\nencoding = \"ascii\"\n")
    let result = try project.strata("init", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("strata.toml:2:1: unknown encoding \"ascii\""))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }
}
