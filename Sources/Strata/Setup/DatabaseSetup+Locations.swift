import Foundation

/// Where an app keeps its database: each place is one call (docs/library.md, "Where the
/// database lives", says when to choose which).
extension DatabaseSetup {
  /// `data.sqlite3` (or `name`) in the app's Application Support folder, inside `subfolder`
  /// (created, with Application Support itself, when missing): the place Apple's guidance gives
  /// for data the user should not see or delete in the Files app.
  ///
  /// - Parameters:
  ///   - name: the database file's name.
  ///   - subfolder: a folder of the app's own inside Application Support (on macOS that folder
  ///     is shared by every app of the user: name it after the app's bundle identifier).
  ///   - excludedFromBackup: keep the subfolder out of iCloud and computer backups, for a
  ///     database the app can rebuild (from the server, from its bundle); user data should be
  ///     backed up, so the default is false.
  /// - Throws: `DatabaseOpenError.folderNotCreated` when the folder cannot be created or
  ///   excluded from backup.
  public static func applicationSupportDatabase(
    named name: String = DatabaseLocation.defaultFileName,
    subfolder: String = "Database",
    excludedFromBackup: Bool = false
  ) throws -> URL {
    let manager = FileManager.default
    var folder: URL
    do {
      folder = try manager.url(
        for: .applicationSupportDirectory,
        in: .userDomainMask,
        appropriateFor: nil,
        create: true
      ).appendingPathComponent(subfolder, isDirectory: true)
    } catch {
      throw DatabaseOpenError.folderNotCreated(
        path: name,
        folder: "Application Support",
        reason: error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
    do {
      try manager.createDirectory(at: folder, withIntermediateDirectories: true)
      #if canImport(Darwin)
      if excludedFromBackup {
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try folder.setResourceValues(values)
      }
      #endif
    } catch {
      throw DatabaseOpenError.folderNotCreated(
        path: folder.appendingPathComponent(name).path,
        folder: folder.path,
        reason: error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
    return folder.appendingPathComponent(name)
  }

  /// `data.sqlite3` (or `name`) in the container of the App Group `group`, which the app and
  /// its extensions share (both need the App Groups entitlement naming it). The app sets the
  /// database up; an extension reads it with `DatabaseQueue.readOnly(url:)` and never
  /// migrates (docs/library.md, "An app and its extensions").
  ///
  /// - Throws: `DatabaseOpenError.noDefaultLocation` when the system gives no container for
  ///   `group` (the entitlement is missing or names another group), or on a platform without
  ///   App Groups (Linux).
  public static func appGroupDatabase(
    named name: String = DatabaseLocation.defaultFileName,
    group: String
  ) throws -> URL {
    #if canImport(Darwin)
    guard
      let container = FileManager.default.containerURL(
        forSecurityApplicationGroupIdentifier: group
      )
    else {
      throw DatabaseOpenError.noDefaultLocation(
        reason: "the system gives this app no container for the App Group \(group) (its "
          + "App Groups entitlement is missing or names another group)"
      )
    }
    return container.appendingPathComponent(name)
    #else
    throw DatabaseOpenError.noDefaultLocation(
      reason: "App Group containers (\(group)) exist only on Apple platforms"
    )
    #endif
  }
}
