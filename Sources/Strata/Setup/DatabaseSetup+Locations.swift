import Foundation

/// Where an app keeps its database: each place is one call (docs/library.md, "Where the
/// database lives", says when to choose which).
extension DatabaseSetup {
  /// `data.sqlite3` (or `name`) in the app's Application Support folder, inside `subfolder`
  /// (created, with Application Support itself, when missing): the place Apple's guidance gives
  /// for data the user should not see or delete in the Files app. On tvOS, where Application
  /// Support does not last either, the Caches folder (which the system may purge).
  ///
  /// - Parameters:
  ///   - name: the database file's name.
  ///   - subfolder: a folder of the app's own inside Application Support; by default the app's
  ///     bundle identifier (else the program's name), since on macOS (unsandboxed) and Linux the
  ///     folder is the user's, shared by every app.
  ///   - excludedFromBackup: keep the subfolder out of iCloud and computer backups, for a
  ///     database the app can rebuild (from the server, from its bundle); user data should be
  ///     backed up, so the default is false.
  /// - Throws: `DatabaseOpenError.folderNotCreated` when the folder cannot be created or
  ///   excluded from backup.
  public static func applicationSupportDatabase(
    named name: String = DatabaseSetup.defaultFileName,
    subfolder: String? = nil,
    excludedFromBackup: Bool = false
  ) throws -> URL {
    let manager = FileManager.default
    let subfolder =
      subfolder ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    #if os(tvOS)
    let directory = FileManager.SearchPathDirectory.cachesDirectory
    #else
    let directory = FileManager.SearchPathDirectory.applicationSupportDirectory
    #endif
    var folder: URL
    do {
      folder = try manager.url(
        for: directory,
        in: .userDomainMask,
        appropriateFor: nil,
        create: true
      ).appendingPathComponent(subfolder, isDirectory: true)
    } catch {
      throw DatabaseOpenError.folderNotCreated(
        path: "Application Support/\(subfolder)/\(name)",
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
  ///   `group` (on iOS and its kin: the entitlement is missing or names another group; macOS
  ///   always gives a path, so there the container must exist or be creatable), or on a
  ///   platform without App Groups (Linux).
  public static func appGroupDatabase(
    named name: String = DatabaseSetup.defaultFileName,
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
    // macOS hands out a path for any group, entitled or not: one that cannot be made is the
    // same refusal.
    do {
      try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
    } catch {
      throw DatabaseOpenError.noDefaultLocation(
        reason: "the container of the App Group \(group) (\(container.path)) cannot be used "
          + "(\(error.localizedDescription)); check the app's App Groups entitlement"
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
