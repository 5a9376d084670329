import Foundation
import Strata
import StrataArguments

/// `--settings`, `--schema-file` and `--no-schema-file`, read once: the project settings and
/// the schema file a run keeps current.
struct SchemaFileOptions {
  /// `--settings` as given; nil takes `strata.toml` in the current folder, if any.
  let settings: String?
  /// `--schema-file` as given; nil takes `[schema] file` of the settings.
  let schemaFile: String?
  let noSchemaFile: Bool

  /// - Throws: `UsageError` for `--schema-file` with `--no-schema-file`.
  init(_ arguments: ParsedArguments) throws {
    settings = arguments[CommonOptions.settings]
    schemaFile = arguments[CommonOptions.schemaFile]
    noSchemaFile = arguments[CommonOptions.noSchemaFile]
    if noSchemaFile, schemaFile != nil {
      throw UsageError(message: "--schema-file and --no-schema-file cannot be used together")
    }
  }

  /// The project settings: the `--settings` file, which must exist, else `strata.toml` in the
  /// current folder when there is one, else strata's defaults.
  func projectSettings(_ context: CommandContext) throws -> ProjectSettings {
    let project = URL(fileURLWithPath: context.currentDirectory)
    guard let named = settings else { return try .inProject(project) }
    return try ProjectSettings(
      contentsOf: DatabaseLocation.absolute(named, from: context.currentDirectory),
      displayPath: named
    )
  }

  /// The schema file this run keeps: `--schema-file` (relative to the current folder), else
  /// `[schema] file` of the settings (relative to the settings file's folder), else none; none
  /// with `--no-schema-file`. A link out of the project folder (the current folder, or the
  /// settings file's) is refused when the file is used.
  func file(_ context: CommandContext, _ settings: ProjectSettings) -> SchemaFile? {
    let here = URL(fileURLWithPath: context.currentDirectory).standardizedFileURL
    if noSchemaFile { return nil }
    if let named = schemaFile {
      return SchemaFile(
        url: DatabaseLocation.absolute(named, from: context.currentDirectory),
        displayPath: named,
        projectFolder: here
      )
    }
    guard let url = settings.schema.fileURL(inProject: here) else { return nil }
    return SchemaFile(
      url: url,
      displayPath: CommonOptions.shown(url, context),
      projectFolder: settings.schema.folder ?? here
    )
  }
}
