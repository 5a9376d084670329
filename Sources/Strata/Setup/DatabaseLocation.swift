import Foundation

/// Where the database file lives: an explicit path, or `data.sqlite3` in the user's documents
/// directory.
package struct DatabaseLocation: Hashable, Sendable {
  /// The default file name in the documents directory.
  package static let defaultFileName = "data.sqlite3"

  /// The database file.
  package let url: URL
  /// Whether it is the default location (whose folder may be created), not an explicit path.
  package let isDefault: Bool

  package init(url: URL, isDefault: Bool) {
    self.url = url
    self.isDefault = isDefault
  }

  /// Resolves the database path. A relative path is taken from `currentDirectory`.
  ///
  /// - Parameters:
  ///   - explicit: the path the caller was given, if any.
  ///   - environment: the process environment (`HOME`, XDG variables), for the default.
  ///   - currentDirectory: where a relative path starts from.
  /// - Returns: the path, and whether it is the default.
  /// - Throws: `DatabaseOpenError.noDefaultLocation` when the default is needed and the
  ///   documents folder cannot be found (`HOME` is not an absolute path).
  package static func resolve(
    explicit: String?,
    environment: [String: String],
    currentDirectory: String = FileManager.default.currentDirectoryPath
  ) throws -> DatabaseLocation {
    if let explicit {
      return DatabaseLocation(url: absolute(explicit, from: currentDirectory), isDefault: false)
    }
    let folder = try documentsDirectory(environment: environment)
    return DatabaseLocation(url: folder.appendingPathComponent(defaultFileName), isDefault: true)
  }

  /// The user's documents directory.
  ///
  /// On Apple platforms, `FileManager`'s `.documentDirectory` (the app's sandbox), except on
  /// tvOS, where an app has no persistent Documents folder: there the Caches folder, which the
  /// system may purge when space runs low (keep what must last in iCloud). On Linux,
  /// the XDG rule, since Foundation there ignores `$HOME` and misreads `user-dirs.dirs`:
  /// `$XDG_DOCUMENTS_DIR`, else that line of `$XDG_CONFIG_HOME/user-dirs.dirs` (default
  /// `~/.config`) with quotes removed and `$HOME` expanded, else `$HOME/Documents`. A relative
  /// value is invalid by the XDG spec and ignored, in the variable and the file alike (taken
  /// from the current directory, the database would move with `cd`). A relative `$HOME` is
  /// refused for the same reason: it cannot locate the documents folder.
  ///
  /// - Throws: `DatabaseOpenError.noDefaultLocation` when `$HOME` is needed and is not an
  ///   absolute path.
  package static func documentsDirectory(environment: [String: String]) throws -> URL {
    #if os(Linux)
    return try xdgDocumentsDirectory(environment: environment)
    #elseif os(tvOS)
    if let url = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first {
      return url
    }
    return try xdgDocumentsDirectory(environment: environment)
    #else
    if let url = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first {
      return url
    }
    return try xdgDocumentsDirectory(environment: environment)
    #endif
  }

  /// The environment variables `documentsDirectory(environment:)` reads, for a caller that
  /// hands it only those (the CLI reads them one at a time).
  package static let documentsVariables = ["HOME", "XDG_DOCUMENTS_DIR", "XDG_CONFIG_HOME"]

  static func xdgDocumentsDirectory(environment: [String: String]) throws -> URL {
    let given = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
    // A relative HOME is no home: taken from the current directory, the database would move
    // with `cd`. Unset, the user's entry in the password database stands in (as Foundation's).
    let home = given.map { $0.hasPrefix("/") ? $0 : "" } ?? NSHomeDirectory()
    if let explicit = environment["XDG_DOCUMENTS_DIR"],
      let path = absoluteXDGPath(explicit, home: home)
    {
      return URL(fileURLWithPath: path)
    }
    guard home.hasPrefix("/") else {
      throw DatabaseOpenError.noDefaultLocation(
        reason: "HOME (\(given ?? "")) is not an absolute path, so the documents folder "
          + "cannot be located"
      )
    }
    let configHome =
      environment["XDG_CONFIG_HOME"].flatMap { absoluteXDGPath($0, home: home) }
      ?? home + "/.config"
    let dirsFile = configHome + "/user-dirs.dirs"
    // Read only when it is a regular file: a named pipe there must not block strata.
    if let bytes = readFile(atPath: dirsFile), let text = utf8Text(bytes) {
      for rawLine in text.split(whereSeparator: \.isNewline) {
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        guard line.hasPrefix("XDG_DOCUMENTS_DIR=") else { continue }
        var value = String(line.dropFirst("XDG_DOCUMENTS_DIR=".count))
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
          value = String(value.dropFirst().dropLast())
        }
        if let path = absoluteXDGPath(value, home: home) { return URL(fileURLWithPath: path) }
      }
    }
    return URL(fileURLWithPath: home).appendingPathComponent("Documents")
  }

  /// `value` with `$HOME` or `~` expanded, when that gives an absolute path; nil for an empty
  /// or relative value, which the XDG spec says to ignore.
  private static func absoluteXDGPath(_ value: String, home: String) -> String? {
    guard !value.isEmpty else { return nil }
    let path = expand(value, home: home)
    return path.hasPrefix("/") ? path : nil
  }

  private static func expand(_ value: String, home: String) -> String {
    if value == "$HOME" || value == "${HOME}" { return home }
    for prefix in ["$HOME/", "${HOME}/"] where value.hasPrefix(prefix) {
      return home + "/" + value.dropFirst(prefix.count)
    }
    if value == "~" { return home }
    if value.hasPrefix("~/") { return home + value.dropFirst(1) }
    return value
  }

  /// `path` made absolute against `directory`.
  package static func absolute(_ path: String, from directory: String) -> URL {
    if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
    return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL
  }
}
