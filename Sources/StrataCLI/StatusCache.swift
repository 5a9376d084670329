import Foundation
@_spi(StrataCLI) import Strata

/// Where `status` keeps its copy of a migrations folder (`MigrationFolderCache`): one file
/// per folder under `$XDG_CACHE_HOME/strata/status` (else `~/.cache`, `~/Library/Caches` on
/// macOS), named by the folder's path; this build of strata is in the copy's key. `STRATA_NO_CACHE` set to anything
/// but empty turns it off. Only `status` uses it: `migrate`, `rollback`, `validate` and every
/// other command read every file every time (docs/decisions.md).
enum StatusCache {
  static func cache(for folder: URL, _ context: CommandContext) -> MigrationFolderCache? {
    let environment = context.environment
    if let off = environment["STRATA_NO_CACHE"], !off.isEmpty { return nil }
    guard let root = root(environment), let build = buildIdentity else { return nil }
    // Named by the folder alone: another build's copy is replaced, not kept beside it.
    let name = SHA256.hex(Array(folder.path.utf8))
    return MigrationFolderCache(
      file: URL(fileURLWithPath: root + "/strata/status/" + name),
      identity: build
    )
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
