import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `strata.toml` read into seed options: the keys, the precedence of `[seeds]`, a file's own
/// section and one run's overrides, and every bad input at its line and column.
@Suite struct ProjectSettingsTests {
  static let example = """
    # Every seed file writes NA for a missing value.
    [seeds]
    null = ["NA"]

    [seeds."flights.tsv"]
    null = ["NA", "\\\\N"]
    delimiter = "\\t"
    encoding = "windows-1252"

    [seeds."flights.tsv".columns]
    "Flight No" = "flight"

    [seeds."penguins.csv"]
    columns = { "Species" = "species" }
    """

  private func invalid(_ text: String) -> SettingsError? {
    do {
      _ = try ProjectSettings(parsing: text)
      return nil
    } catch let error as SettingsError {
      return error
    } catch {
      return nil
    }
  }

  @Test func everyKeyIsRead() throws {
    let settings = try ProjectSettings(parsing: Self.example)
    #expect(settings.seeds.defaults == SeedFormatSettings(nullTokens: ["NA"]))
    #expect(
      settings.seeds.files["flights.tsv"]
        == SeedFormatSettings(
          nullTokens: ["NA", "\\N"],
          delimiter: "\t",
          encoding: .windows1252,
          columns: ["Flight No": "flight"]
        )
    )
    #expect(
      settings.seeds.files["penguins.csv"] == SeedFormatSettings(columns: ["Species": "species"])
    )
  }

  @Test func aFilesOwnKeysOverrideTheDefaultsFieldByFieldAndARunsOverridesAll() throws {
    let seeds = try ProjectSettings(parsing: Self.example).seeds
    let penguins = SeedFile(url: URL(fileURLWithPath: "/p/seeds/penguins.csv"))
    let other = SeedFile(url: URL(fileURLWithPath: "/p/seeds/other.csv"))
    // penguins.csv: its own columns, the [seeds] null tokens.
    #expect(
      seeds.format(of: penguins)
        == SeedFileFormat(nullTokens: ["NA"], columns: ["Species": "species"])
    )
    #expect(seeds.format(of: other) == SeedFileFormat(nullTokens: ["NA"]))
    // A run's option replaces that field only, over the file's own section.
    let flights = SeedFile(url: URL(fileURLWithPath: "/p/seeds/flights.tsv"))
    let overridden = seeds.format(of: flights, overrides: SeedFormatSettings(nullTokens: ["-"]))
    #expect(overridden.nullTokens == ["-"])
    #expect(overridden.encoding == .windows1252)
    #expect(overridden.delimiter == "\t")
    // Standard input has no name: the defaults apply, a file's section never does.
    let stdin = SeedFile.standardInput(table: "flights")
    #expect(seeds.format(of: stdin) == SeedFileFormat(nullTokens: ["NA"]))
    #expect(
      seeds.applied(to: [penguins, other]).map(\.format) == [
        seeds.format(of: penguins), seeds.format(of: other),
      ]
    )
  }

  @Test func anEmptyFileAndCommentsOnlyGiveTheDefaults() throws {
    #expect(try ProjectSettings(parsing: "") == ProjectSettings())
    #expect(try ProjectSettings(parsing: "# nothing yet\n\n[seeds]\n") == ProjectSettings())
  }

  @Test(arguments: [
    (
      "[seeds]\nnul = [\"NA\"]", 2, 1, "unknown key nul in [seeds]",
      "the keys of a seeds section are null, delimiter, encoding, columns, reload"
    ),
    (
      "null = [\"NA\"]", 1, 1, "unknown key null at the top of the file",
      "settings go in sections: [seeds], [seeds.\"FILE\"] and their .columns tables, and [schema]"
    ),
    (
      "[seed]\n", 1, 1, "unknown section [seed]",
      "the sections are [seeds], [seeds.\"FILE\"] and their .columns tables, and [schema]"
    ),
    (
      "[seeds.\"a.csv\".other]\n", 1, 1, "unknown section [seeds.\"a.csv\".other]",
      "the sections are [seeds], [seeds.\"FILE\"] and their .columns tables, and [schema]"
    ),
    (
      "[seeds]\nnull = \"NA\"", 2, 1, "null is a string",
      "null is an array of strings, such as null = [\"NA\", \"\\\\N\"]"
    ),
    (
      "[seeds]\ndelimiter = \";;\"", 2, 1,
      "the delimiter \";;\" is not one character other than a quote or a line break",
      "delimiter is one character, such as delimiter = \";\" or \"\\t\" for a tab"
    ),
    (
      "[seeds]\ndelimiter = \"\\\"\"", 2, 1,
      "the delimiter \"\\\"\" is not one character other than a quote or a line break",
      "delimiter is one character, such as delimiter = \";\" or \"\\t\" for a tab"
    ),
    (
      "[seeds]\n  encoding = \"ebcdic\"", 2, 3, "unknown encoding \"ebcdic\"",
      "encoding is one of \"utf-8\", \"windows-1252\", \"latin-1\", \"utf-16\", \"utf-16le\", "
        + "\"utf-16be\""
    ),
    (
      "[seeds]\nencoding = 1252", 2, 1, "encoding is an integer",
      "encoding is a string, such as encoding = \"windows-1252\""
    ),
    (
      "[seeds.\"a.csv\".columns]\nSpecies = true", 2, 1,
      "the column for the header \"Species\" is a boolean",
      "each line of [seeds.\"a.csv\".columns] is \"CSV header\" = \"column\""
    ),
    (
      "[seeds]\nnull = [\"NA\"]\nnull = [\"-\"]", 3, 1,
      "the key null is given twice in [seeds] (first on line 2)",
      "the settings file is TOML: comments, [table] headers and key = value lines"
    ),
    (
      "[seeds.\"a.csv\"]\n[seeds.\"a.csv\"]", 2, 1,
      "the table [seeds.\"a.csv\"] is defined twice (first on line 1)",
      "the settings file is TOML: comments, [table] headers and key = value lines"
    ),
    (
      "[schema]\nfile = \"schema.sql\"\n  files = \"x\"", 3, 3, "unknown key files in [schema]",
      "the one key of [schema] is file, the schema file's path"
    ),
    (
      "[seeds]\n[schema]\nfile = 1", 3, 1, "file is an integer",
      "file is the schema file's path, relative to the settings file's folder, such as "
        + "file = \"schema.sql\""
    ),
    (
      "[schema]\nfile = \"\"", 2, 1, "file is not a path",
      "file is the schema file's path, relative to the settings file's folder, such as "
        + "file = \"schema.sql\""
    ),
    (
      "[schema.file]\n", 1, 1, "unknown section [schema.file]",
      "the sections are [seeds], [seeds.\"FILE\"] and their .columns tables, and [schema]"
    ),
    (
      "[seeds.\"a.csv\"]\ncolumns = { A = \"a\" }\n[seeds.\"a.csv\".columns]", 3, 1,
      "the table [seeds.\"a.csv\".columns] clashes with the key columns on line 2",
      "the settings file is TOML: comments, [table] headers and key = value lines"
    ),
  ])
  func badSettingsNameTheirLineColumnAndWhatIsAllowed(
    text: String,
    line: Int,
    column: Int,
    problem: String,
    allowed: String
  ) {
    let error = invalid(text)
    #expect(
      error
        == .invalid(
          path: "strata.toml",
          line: line,
          column: column,
          problem: problem,
          allowed: allowed
        )
    )
    #expect(error?.message == "strata.toml:\(line):\(column): \(problem); nothing was changed")
    #expect(error?.help == "Fix line \(line): \(allowed) (docs/settings.md lists every key).")
  }

  @Test func theSchemaFileIsRelativeToTheSettingsFilesFolder() throws {
    let folder = try TemporaryDirectory()
    try folder.write("config/strata.toml", "[schema]\nfile = \"../db/schema.sql\"\n")
    let settings = try ProjectSettings(contentsOf: folder.path("config/strata.toml"))
    #expect(settings.schema.file == "../db/schema.sql")
    #expect(
      settings.schema.fileURL(inProject: URL(fileURLWithPath: "/elsewhere"))
        == folder.path("db/schema.sql").standardizedFileURL
    )
    // Parsed from text, it is relative to the project folder; none is named by default.
    let parsed = try ProjectSettings(parsing: "[schema]\nfile = \"schema.sql\"\n")
    #expect(
      parsed.schema.fileURL(inProject: URL(fileURLWithPath: "/p"))
        == URL(fileURLWithPath: "/p/schema.sql")
    )
    #expect(try ProjectSettings(parsing: "[seeds]\n").schema.fileURL(inProject: folder.url) == nil)
  }

  @Test func aNamedSeedFileMissingFromTheFolderIsAnErrorNamingIt() throws {
    let folder = try TemporaryDirectory()
    try folder.write("seeds/penguins.csv", "species\nAdelie\n")
    let seeds = try ProjectSettings(
      parsing:
        "[seeds.\"penguins.csv\"]\nnull = [\"NA\"]\n\n[seeds.\"pengiuns.csv\"]\nnull = [\"NA\"]"
    ).seeds
    #expect(
      throws: SettingsError.unknownSeedFile(
        path: "strata.toml",
        line: 4,
        file: "pengiuns.csv",
        folder: "seeds"
      )
    ) {
      try seeds.checkNamedFiles(existIn: folder.path("seeds"), folderDisplayPath: "seeds")
    }
    // A file given by path (outside the folder) counts as present.
    let given = SeedFile(url: folder.path("elsewhere/pengiuns.csv"))
    try seeds.checkNamedFiles(existIn: folder.path("seeds"), besides: [given])
  }

  @Test func aSettingsFileThatIsMissingOrNotTextIsAnError() throws {
    let folder = try TemporaryDirectory()
    #expect(throws: SettingsError.fileNotFound(path: "nope.toml")) {
      try ProjectSettings(contentsOf: folder.path("nope.toml"), displayPath: "nope.toml")
    }
    // The project folder's own file is optional.
    #expect(try ProjectSettings.inProject(folder.url) == ProjectSettings())
    try Data([0xFF, 0xFE, 0x00]).write(to: folder.path("strata.toml"))
    #expect(throws: SettingsError.unreadable(path: "strata.toml", reason: "it is not UTF-8 text")) {
      try ProjectSettings.inProject(folder.url)
    }
  }
}
