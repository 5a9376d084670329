import Foundation
import Strata

/// Where `status` keeps its copies: of a migrations folder (`MigrationFolderCache`) and of a
/// database's history (`DatabaseHistoryCache`), one file each under
/// `$XDG_CACHE_HOME/strata/status` (else `~/.cache`, `~/Library/Caches` on macOS), named by
/// the folder's or the database's path; this build of strata is in each copy's key.
/// `STRATA_NO_CACHE` set to anything but empty turns both off. Only `status` uses them:
/// `migrate`, `rollback`, `validate` and every other command read every file every time
/// (docs/decisions.md).
enum StatusCache {
  static func cache(for folder: URL, _ context: CommandContext) -> MigrationFolderCache? {
    // Named by the folder alone: another build's copy is replaced, not kept beside it.
    location(named: folder.path, context).map {
      MigrationFolderCache(file: $0.file, identity: $0.build)
    }
  }

  static func historyCache(
    forDatabaseAt path: String,
    _ context: CommandContext
  ) -> DatabaseHistoryCache? {
    location(named: "database\n" + path, context).map {
      DatabaseHistoryCache(file: $0.file, identity: $0.build)
    }
  }

  /// The copy's file, named by the SHA-256 of `name`, and this build; nil when copies are
  /// off or there is nowhere to keep them.
  private static func location(
    named name: String,
    _ context: CommandContext
  ) -> (file: URL, build: String)? {
    let environment = context.environment
    if let off = environment["STRATA_NO_CACHE"], !off.isEmpty { return nil }
    guard let root = root(environment), let build = buildIdentity else { return nil }
    let file = URL(fileURLWithPath: root + "/strata/status/" + SHA256.hex(Array(name.utf8)))
    return (file, build)
  }

  /// The user's cache folder: an absolute `XDG_CACHE_HOME`, else one under an absolute `HOME`.
  private static func root(_ environment: EnvironmentVariables) -> String? {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    #if canImport(Darwin)
    return home + "/Library/Caches"
    #else
    return home + "/.cache"
    #endif
  }

  /// This build: its version and the running executable's file (device, inode, size, times),
  /// so that a rebuilt strata, whose reading may differ, never takes another build's copy.
  /// Nil when the executable cannot be found.
  private static let buildIdentity: String? = {
    #if os(Linux)
    let path = "/proc/self/exe"
    #else
    guard let path = Bundle.main.executablePath else { return nil }
    #endif
    guard let executable = FolderSnapshot.file(atPath: path) else { return nil }
    return "strata \(CommandLineTool.version) \(executable.identity)"
  }()
}
