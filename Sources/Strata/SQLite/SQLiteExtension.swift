import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// A loadable SQLite extension: a shared library with SQL functions (or collations, virtual
/// tables) that an app's migrations call, loaded as the sqlite3 shell's `.load` loads it.
public struct SQLiteExtension: Hashable, Sendable, Codable {
  /// The shared library's path (SQLite tries it with the platform's suffix, `.so` or
  /// `.dylib`, added too).
  public var path: String
  /// The name of its entry point; nil for SQLite's default (`sqlite3_extension_init`, or one
  /// derived from the file's name).
  public var entryPoint: String?

  /// The extension at `path`, entered through `entryPoint` (nil: SQLite's default).
  public init(path: String, entryPoint: String? = nil) {
    self.path = path
    self.entryPoint = entryPoint
  }

  /// The extension at the file `url`, entered through `entryPoint` (nil: SQLite's default).
  public init(url: URL, entryPoint: String? = nil) {
    self.init(path: url.path, entryPoint: entryPoint)
  }
}

/// An extension did not load; the connection is as it was.
public struct ExtensionLoadError: StrataError, Hashable, Sendable {
  /// The extension asked for.
  public let loadable: SQLiteExtension
  /// Why, in SQLite's words (or that this SQLite cannot load extensions).
  public let reason: String

  /// The extension's path and entry point, SQLite's message, and that nothing was changed.
  public var message: String {
    let entry = loadable.entryPoint.map { " (entry point \($0))" } ?? ""
    return "cannot load the SQLite extension \(loadable.path)\(entry): \(reason); "
      + "nothing was changed"
  }

  /// What to check.
  public var help: String {
    "Check that the path names a shared library built as an SQLite extension for this "
      + "platform, and the entry point's name; where SQLite offers no extension loading (Apple's "
      + "system SQLite), register the functions in Swift instead (Connection.registerFunction)."
  }
}

extension Connection {
  /// Whether the linked SQLite can load extensions: Debian's and most Linux builds can; Apple's
  /// system SQLite cannot.
  public static var canLoadExtensions: Bool {
    #if os(Linux)
    return sqlite3_compileoption_used("OMIT_LOAD_EXTENSION") == 0
    #else
    return false
    #endif
  }

  /// Loads `loadable` into this connection. Extension loading is turned on only for this call
  /// and off again, so SQL (a migration) can never load one itself with `load_extension()`.
  ///
  /// - Throws: `ExtensionLoadError` naming the path and SQLite's message when the file is
  ///   missing, is not an extension, has no such entry point or its entry point fails, or
  ///   when this SQLite cannot load extensions.
  public func loadExtension(_ loadable: SQLiteExtension) throws {
    #if os(Linux)
    guard Self.canLoadExtensions else {
      throw ExtensionLoadError(
        loadable: loadable,
        reason: "this SQLite was built without extension loading"
      )
    }
    sqlite3_enable_load_extension(handle, 1)
    defer { sqlite3_enable_load_extension(handle, 0) }
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_load_extension(handle, loadable.path, loadable.entryPoint, &message)
    guard rc == SQLITE_OK else {
      let reason = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
      sqlite3_free(message)
      throw ExtensionLoadError(loadable: loadable, reason: reason)
    }
    #else
    throw ExtensionLoadError(
      loadable: loadable,
      reason: "this platform's SQLite does not offer extension loading"
    )
    #endif
  }
}
