import Foundation

/// A generated migration written as the next migration of a folder (`strata new
/// --from-schema`) or shown as the files it would be (`strata diff`). The writer in
/// `Migrations/New` knows only `NewMigrationContent`; what a generated migration holds, and
/// that one without a change is refused, are said here.
extension GeneratedMigration {
  /// The parts the migration's files hold: a comment listing the changes, then the up part's
  /// statements (and why there is no down part, when there is none); the down part's.
  var newMigrationContent: NewMigrationContent {
    let header =
      ["-- Generated from \(Self.commentText(desiredFile)):"]
      + changes.map { "--   \(Self.commentText($0))" }
    return NewMigrationContent(
      header: header.joined(separator: "\n") + "\n",
      up: upStatements.map(Self.newStatement),
      upNote: irreversibleReason.map { "-- No down part: \(Self.commentText($0)).\n" },
      down: downStatements.map { $0.map(Self.newStatement) }
    )
  }
}

extension MigrationSet {
  /// Writes the next migration of the folder as `createMigrationFiles(in:name:format:excluding:now:)`
  /// does, holding `content`'s up and down parts instead of `-- strata:todo` lines (a part the
  /// format has no place for, or that does not exist, is not written); with `content` nil, an
  /// empty migration.
  ///
  /// - Returns: the new files' URLs (up first).
  /// - Throws: `DiffError.noChanges` for a `content` without a change (after an invalid name's
  ///   `MigrationError`), with nothing written; `MigrationError` as
  ///   `createMigrationFiles(in:name:format:excluding:now:)` throws it.
  package static func createMigrationFiles(
    in directory: URL,
    name rawName: String,
    format chosen: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion(),
    content: GeneratedMigration?,
    now: Date = Date()
  ) throws -> [URL] {
    if let content, content.isEmpty {
      _ = try NewMigration.migrationName(rawName)
      throw DiffError.noChanges(desiredFile: content.desiredFile)
    }
    return try NewMigration.write(
      in: directory,
      name: rawName,
      format: chosen,
      excluding: exclusion,
      content: content?.newMigrationContent,
      now: now
    )
  }

  /// The files `createMigrationFiles` would write for `content` (name endings after the
  /// version and name, such as `.sql` or `.up.sql`, and texts), without writing anything.
  ///
  /// - Throws: `MigrationError`, as `createMigrationFiles` throws it.
  package static func newMigrationTexts(
    in directory: URL,
    name rawName: String,
    format chosen: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion(),
    content: GeneratedMigration,
    now: Date = Date()
  ) throws -> (stem: String, files: [(ending: String, text: String)]) {
    try NewMigration.texts(
      in: directory,
      name: rawName,
      format: chosen,
      excluding: exclusion,
      content: content.newMigrationContent,
      now: now
    )
  }
}
