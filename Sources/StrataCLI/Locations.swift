import Foundation
import Strata
import StrataArguments

/// Where the files a command works on are: the path options resolved against the environment
/// and the working directory.
extension CommonOptions {
  /// The database path, checked before any command looks at it: an empty `--database` is a
  /// usage error (it would name the current folder), and a named pipe, a device, a symbolic
  /// link loop or a folder without search permission is reported as what it is, never as "no
  /// database yet".
  static func databaseURL(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> DatabaseLocation {
    try rejectEmptyPaths(arguments)
    // `--database`, else `$STRATA_DATABASE` (when not empty), else the library's default.
    let fromEnvironment = context.environment["STRATA_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
    let location = try DatabaseLocation.resolve(
      explicit: arguments[database] ?? fromEnvironment,
      environment: context.environment.forDefaultLocation,
      currentDirectory: context.currentDirectory
    )
    if let note = documentsPromptNote(for: location, onMacOS: isMacOS) {
      context.printError(note)
    }
    try checkDatabasePath(location.url)
    return location
  }

  #if os(macOS)
  static let isMacOS = true
  #else
  static let isMacOS = false
  #endif

  /// On macOS, the default database lives in `~/Documents`, which the system guards: the first
  /// time a terminal's program touches it, macOS asks the user to allow it. Said before strata
  /// touches it, so the prompt never comes without a reason; nil when a path was given.
  static func documentsPromptNote(for location: DatabaseLocation, onMacOS: Bool) -> String? {
    guard onMacOS, location.isDefault else { return nil }
    return "Note: no --database or STRATA_DATABASE was given, so strata uses "
      + "\(location.url.path); macOS may ask to let your terminal use the Documents folder "
      + "for it. Pass --database PATH to use another place."
  }

  /// A path option given as an empty string (`--database=`) is a usage error.
  static func rejectEmptyPaths(_ arguments: ParsedArguments) throws {
    for option in pathOptions where arguments[option] == "" {
      let name = option.spec.name
      throw UsageError(
        message: "--\(name) needs a path; it was given an empty value",
        help: "Name a path, such as --\(name)=\(name == "database" ? "data.sqlite3" : name)."
      )
    }
  }

  /// The migrations folder as given (for messages) and as a URL.
  static func migrationsDirectory(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  )
    -> Folder
  {
    folder(migrations, variable: "STRATA_MIGRATIONS", arguments, context)
  }

  static func seedsDirectory(_ arguments: ParsedArguments, _ context: CommandContext) -> Folder {
    folder(seeds, variable: "STRATA_SEEDS", arguments, context)
  }

  /// A folder named by an option, else an environment variable, else its default: the option's
  /// name under the current directory.
  struct Folder {
    let url: URL
    /// As the user gave it, for messages.
    let shown: String
    /// Chosen by the user rather than taken by default: then it must exist.
    let isNamed: Bool

    var exists: Bool {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }
  }

  private static func folder(
    _ option: Option<String?>,
    variable: String,
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) -> Folder {
    let named =
      arguments[option] ?? context.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    let shown = named ?? option.spec.name
    return Folder(
      url: DatabaseLocation.absolute(shown, from: context.currentDirectory),
      shown: shown,
      isNamed: named != nil
    )
  }

  /// The migrations folder, read in full; with `cached` (`status` only), through the copy
  /// `StatusCache` keeps when no file in it has changed since.
  static func loadMigrations(
    _ arguments: ParsedArguments,
    _ context: CommandContext,
    cached: Bool = false
  ) throws
    -> MigrationSet
  {
    try rejectEmptyPaths(arguments)
    let directory = migrationsDirectory(arguments, context)
    let exclusion = MigrationFileExclusion(arguments[exclude])
    if cached, let cache = StatusCache.cache(for: directory.url, context) {
      return try cache.migrations(
        directory: directory.url,
        displayPath: directory.shown,
        followSymlinks: arguments[followSymlinks],
        format: arguments[migrationFormat],
        excluding: exclusion
      ).0
    }
    return try MigrationSet(
      directory: directory.url,
      displayPath: directory.shown,
      followSymlinks: arguments[followSymlinks],
      format: arguments[migrationFormat],
      excluding: exclusion
    )
  }

  /// The project settings: the `--settings` file, which must exist, else `strata.toml` in the
  /// current folder when there is one, else strata's defaults.
  static func projectSettings(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> ProjectSettings {
    try rejectEmptyPaths(arguments)
    let project = URL(fileURLWithPath: context.currentDirectory)
    guard let named = arguments[settings] else { return try .inProject(project) }
    return try ProjectSettings(
      contentsOf: DatabaseLocation.absolute(named, from: context.currentDirectory),
      displayPath: named
    )
  }

  /// The schema file this run keeps: `--schema-file` (relative to the current folder), else
  /// `[schema] file` of the settings (relative to the settings file's folder), else none; none
  /// with `--no-schema-file`. A link out of the project folder (the current folder, or the
  /// settings file's) is refused when the file is used.
  ///
  /// - Throws: `UsageError` for `--schema-file` with `--no-schema-file`.
  static func schemaFile(
    _ arguments: ParsedArguments,
    _ context: CommandContext,
    _ settings: ProjectSettings
  ) throws -> SchemaFile? {
    try rejectEmptyPaths(arguments)
    let here = URL(fileURLWithPath: context.currentDirectory).standardizedFileURL
    if arguments[noSchemaFile] {
      if arguments[schemaFile] != nil {
        throw UsageError(message: "--schema-file and --no-schema-file cannot be used together")
      }
      return nil
    }
    if let named = arguments[schemaFile] {
      return SchemaFile(
        url: DatabaseLocation.absolute(named, from: context.currentDirectory),
        displayPath: named,
        projectFolder: here
      )
    }
    guard let url = settings.schema.fileURL(inProject: here) else { return nil }
    return SchemaFile(
      url: url,
      displayPath: shown(url, context),
      projectFolder: settings.schema.folder ?? here
    )
  }

  /// The path as the user would recognise it: relative to the working directory when inside it.
  static func shown(_ url: URL, _ context: CommandContext) -> String {
    let base =
      context.currentDirectory.hasSuffix("/")
      ? context.currentDirectory : context.currentDirectory + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }
}
