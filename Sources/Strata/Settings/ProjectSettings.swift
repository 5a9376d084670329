import Foundation

/// A project's settings file, `strata.toml`: the options a project keeps beside its
/// migrations and seeds, read by `strata` and by an app's launch (`DatabaseSetup.settings`),
/// so both load the seeds the same way. Options given for one run override the file's.
///
/// ```toml
/// [seeds]
/// null = ["NA"]
///
/// [seeds."flights.tsv"]
/// encoding = "windows-1252"
///
/// [schema]
/// file = "schema.sql"
/// ```
///
/// The file is a small part of TOML that strata reads itself: comments, `[table]` headers,
/// strings, integers, booleans, arrays of strings and inline tables of strings. Anything else,
/// a key given twice or a key strata does not know is an error at its line and column.
public struct ProjectSettings: Hashable, Sendable {
  /// The settings file's name in the project folder.
  public static let fileName = "strata.toml"

  /// How the seed files are read (`[seeds]` and `[seeds."FILE"]`).
  package var seeds: SeedSettings
  /// The schema file the project keeps current (`[schema]`); none by default.
  package var schema: SchemaSettings

  /// Settings with strata's defaults everywhere (what a project without a file gets).
  package init(seeds: SeedSettings = SeedSettings(), schema: SchemaSettings = SchemaSettings()) {
    self.seeds = seeds
    self.schema = schema
  }

  /// The settings in `text`, named `displayPath` in errors.
  ///
  /// - Throws: `SettingsError.invalid` at the first line that is not valid settings.
  public init(parsing text: String, displayPath: String = ProjectSettings.fileName) throws {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch let error as TOMLSyntaxError {
      throw SettingsError.invalid(
        path: displayPath,
        line: error.position.line,
        column: error.position.column,
        problem: error.reason,
        allowed: "the settings file is TOML: comments, [table] headers and key = value lines"
      )
    }
    let (seeds, schema) = try SettingsReader(path: displayPath).settings(document)
    self.init(seeds: seeds, schema: schema)
  }

  /// The settings in the file at `url` (shown as `displayPath`, default its path); the paths
  /// it names are relative to its folder.
  ///
  /// - Throws: `SettingsError.fileNotFound` when there is no file, `.unreadable` when it
  ///   cannot be read as UTF-8 text, `.invalid` at its first bad line.
  public init(contentsOf url: URL, displayPath: String? = nil) throws {
    let shown = displayPath ?? url.path
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw SettingsError.fileNotFound(path: shown)
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw SettingsError.unreadable(
        path: shown,
        reason: error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw SettingsError.unreadable(path: shown, reason: "it is not UTF-8 text")
    }
    try self.init(parsing: text, displayPath: shown)
    schema.folder = url.deletingLastPathComponent().standardizedFileURL
  }

  /// The settings of the project folder `directory`: its `strata.toml`, or the defaults
  /// when it has none.
  ///
  /// - Throws: `SettingsError` when the file exists but is not valid settings.
  public static func inProject(
    _ directory: URL,
    displayPath: String? = nil
  ) throws
    -> ProjectSettings
  {
    let url = directory.appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: url.path) else { return ProjectSettings() }
    return try ProjectSettings(contentsOf: url, displayPath: displayPath ?? fileName)
  }
}
