import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// The options that say which database a command opens and how: `--database`,
/// `--busy-timeout` and `--load-extension`, read once. The path is resolved and checked once,
/// by `resolve(_:)`, into the `ResolvedDatabase` the command passes on.
struct DatabaseOptions {
  /// `--database` as given; nil takes `$STRATA_DATABASE`, else the library's default.
  let path: String?
  let busyTimeout: Int
  /// `--load-extension`, in order.
  let extensions: [SQLiteExtension]

  init(_ arguments: ParsedArguments) {
    path = arguments[CommonOptions.database]
    busyTimeout = arguments[CommonOptions.busyTimeout]
    extensions = arguments[CommonOptions.loadExtension]
  }

  /// The database path, checked before any command looks at it: a named pipe, a device, a
  /// symbolic link loop or a folder without search permission is reported as what it is, never
  /// as "no database yet". (An empty `--database` is a usage error when the arguments are
  /// read: it would name the current folder.)
  ///
  /// - Throws: `ClusterRefusal` for a dqlite cluster's address: a command that runs on a
  ///   cluster asks `cluster(_:)` first, or `resolveReading(_:)`.
  func resolve(_ context: CommandContext) throws -> ResolvedDatabase {
    if let named = named(context), DqliteURL.names(named) {
      throw ClusterRefusal(url: named, reason: nil)
    }
    let location = try DatabaseLocation.resolve(
      explicit: named(context),
      environment: context.environment.forDefaultLocation,
      currentDirectory: context.currentDirectory
    )
    if let note = CommonOptions.documentsPromptNote(for: location, onMacOS: CommonOptions.isMacOS) {
      context.printError(note)
    }
    try checkDatabasePath(location.url)
    return ResolvedDatabase(location: location, shown: CommonOptions.shown(location.url, context))
  }

  /// `--database`, else `$STRATA_DATABASE` (when not empty); nil for the library's default.
  func named(_ context: CommandContext) -> String? {
    path ?? context.environment["STRATA_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// What every connection the command opens gets: the extensions given, each loaded once
  /// into a scratch in-memory connection first, so that a missing or bad one fails before any
  /// file is opened or created.
  ///
  /// - Throws: `ExtensionLoadError` naming the extension and SQLite's message.
  func configuration() throws -> ConnectionConfiguration {
    try Self.configuration(loading: extensions)
  }

  /// The configuration with `extensions`, each loaded once into a scratch in-memory connection
  /// (`configuration()`), for a command that opens no named database (`template`).
  static func configuration(
    loading extensions: [SQLiteExtension]
  ) throws
    -> ConnectionConfiguration
  {
    let configuration = ConnectionConfiguration(extensions: extensions)
    if !configuration.extensions.isEmpty { _ = try configuration.openInMemory() }
    return configuration
  }
}

/// The database a command works on, resolved (flag, environment, default) and checked once:
/// the one value every later step is given, instead of the path in another shape.
struct ResolvedDatabase: Sendable {
  /// The file, and whether it is the default location (whose folder may be created).
  let location: DatabaseLocation
  /// The path as the user would recognise it, for messages and reports.
  let shown: String
  /// True for a snapshot of a cluster's database (`resolveReading(_:)`): a temporary file,
  /// never kept in a cache.
  var isClusterSnapshot = false

  /// A database named outright (`strata schema --database`), never the environment's or the
  /// default one, checked as `DatabaseOptions.resolve(_:)` checks it.
  static func named(_ path: String, _ context: CommandContext) throws -> ResolvedDatabase {
    if DqliteURL.names(path) {
      let url = try DqliteURL(path)
      return try snapshot(of: try DqliteDatabase(nodes: url.nodes, name: url.name), url)
    }
    let location = try DatabaseLocation.resolve(
      explicit: path,
      environment: [:],
      currentDirectory: context.currentDirectory
    )
    try checkDatabasePath(location.url)
    return ResolvedDatabase(location: location, shown: CommonOptions.shown(location.url, context))
  }

  var url: URL { location.url }
  var path: String { location.url.path }

  /// What is at the path now. A command reads it once, where it decides, and passes it to
  /// `DatabaseSession` with the connection it asks for.
  func kind() -> DatabaseFileKind {
    databaseFileKind(at: path)
  }
}

extension CommonOptions {
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
}
