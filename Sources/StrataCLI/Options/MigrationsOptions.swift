import Foundation
import Strata
import StrataArguments

/// The options that say where the migrations are and how to read them: `--migrations`,
/// `--migration-format`, `--exclude` and `--follow-symlinks`, read once.
struct MigrationsOptions {
  /// `--migrations` as given; nil takes `$STRATA_MIGRATIONS`, else `./migrations`.
  let folder: String?
  /// Nil detects the format from the files.
  let format: MigrationFormat?
  /// `--exclude`, in order.
  let exclude: [String]
  let followSymlinks: Bool

  init(_ arguments: ParsedArguments) {
    folder = arguments[CommonOptions.migrations]
    format = arguments[CommonOptions.migrationFormat]
    exclude = arguments[CommonOptions.exclude]
    followSymlinks = arguments[CommonOptions.followSymlinks]
  }

  /// Whether the user named the format, rather than leaving it to be detected.
  var formatNamed: Bool { format != nil }

  var exclusion: MigrationFileExclusion { MigrationFileExclusion(exclude) }

  /// The migrations folder as given (for messages) and as a URL.
  func directory(_ context: CommandContext) -> CommonOptions.Folder {
    CommonOptions.Folder(
      folder,
      variable: "STRATA_MIGRATIONS",
      default: CommonOptions.migrations.spec.name,
      context
    )
  }

  /// The migrations folder, read in full; with `cached` (`status` only), through the copy
  /// `StatusCache` keeps when no file in it has changed since.
  func load(_ context: CommandContext, cached: Bool = false) throws -> MigrationSet {
    let directory = directory(context)
    if cached, let cache = StatusCache.cache(for: directory.url, context) {
      return try cache.migrations(
        directory: directory.url,
        displayPath: directory.shown,
        followSymlinks: followSymlinks,
        format: format,
        excluding: exclusion
      ).0
    }
    return try MigrationSet(
      directory: directory.url,
      displayPath: directory.shown,
      followSymlinks: followSymlinks,
      format: format,
      excluding: exclusion
    )
  }
}
