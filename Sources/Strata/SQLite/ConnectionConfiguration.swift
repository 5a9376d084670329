import Foundation

/// What strata does to every connection it opens for the caller, before anything else runs on
/// it: loads SQLite extensions, then runs the app's own preparation (registering the Swift
/// functions its migrations call, see `Connection.registerFunction`). `DatabaseSetup`,
/// `Connection.open(at:)`, `DriftCheck`, `Validator` (their replays of the migrations) and
/// `TemplateBuilder` take one, so a migration that calls an app's function works in each.
///
/// ```swift
/// var setup = DatabaseSetup(database: url, migrations: migrationsFolder)
/// setup.connectionConfiguration = ConnectionConfiguration { connection in
///   try connection.registerFunction("nfc", argumentCount: 1, deterministic: true) { arguments in
///     guard case .text(let text) = arguments[0] else { return arguments[0] }
///     return .text(text.precomposedStringWithCanonicalMapping)
///   }
/// }
/// try await setup.run()
/// ```
public struct ConnectionConfiguration: Sendable {
  /// The extensions loaded into each connection, in order.
  public var extensions: [SQLiteExtension]
  /// Runs on each connection after the extensions load.
  ///
  /// - Throws: any error, which fails the call that opened the connection.
  public var prepare: (@Sendable (Connection) throws -> Void)?

  /// A configuration that loads `extensions`, then runs `prepare`.
  ///
  /// - Throws: nothing here; `prepare` throws when a connection is opened, failing that call.
  public init(
    extensions: [SQLiteExtension] = [],
    prepare: (@Sendable (Connection) throws -> Void)? = nil
  ) {
    self.extensions = extensions
    self.prepare = prepare
  }

  /// Nothing: the connection as SQLite opens it (with foreign keys on).
  public static let none = ConnectionConfiguration()

  /// Loads the extensions into `connection` and runs `prepare` on it.
  ///
  /// - Throws: `ExtensionLoadError` when an extension does not load; whatever `prepare` throws.
  public func apply(to connection: Connection) throws {
    for loadable in extensions { try connection.loadExtension(loadable) }
    try prepare?(connection)
  }

  /// Opens `path` and applies this configuration: the one place strata opens a connection
  /// (see `Connection.init(path:mode:busyTimeout:foreignKeys:)` for the parameters).
  ///
  /// - Throws: `SQLiteError` when SQLite cannot open the file; what `apply(to:)` throws.
  public func open(
    path: String,
    mode: Connection.OpenMode = .readWriteCreate,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    foreignKeys: Bool = true
  ) throws -> Connection {
    try open(
      path: path,
      mode: mode,
      busyTimeout: busyTimeout,
      foreignKeys: foreignKeys,
      shownAs: nil
    )
  }

  /// `open(path:mode:busyTimeout:foreignKeys:)`, the connection naming itself `shownAs` in
  /// errors (`Connection.path`).
  package func open(
    path: String,
    mode: Connection.OpenMode,
    busyTimeout: Int,
    foreignKeys: Bool,
    shownAs: String?
  ) throws -> Connection {
    let connection = try Connection(
      path: path,
      mode: mode,
      busyTimeout: busyTimeout,
      foreignKeys: foreignKeys,
      shownAs: shownAs
    )
    try apply(to: connection)
    return connection
  }

  /// A private in-memory database, configured.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot allocate it; what `apply(to:)` throws.
  public func openInMemory() throws -> Connection {
    try open(path: ":memory:")
  }
}
