import Foundation

/// The `new` command's entry points, kept on `MigrationSet` for the apps that call them; the
/// writing is `NewMigration`'s.
extension MigrationSet {
  /// Writes an empty migration with up/down markers, numbered after the folder's newest:
  /// zero-padded to the width the folder uses (`0005`), or a UTC timestamp when the folder
  /// uses timestamps. Creates the folder when missing.
  ///
  /// - Returns: the new file's URL (the up file of a pair).
  /// - Throws: `MigrationError`: an invalid name, an unreadable folder, no version left, or a file
  ///   that could not be created (nothing is ever written over an existing file).
  public static func createMigrationFile(
    in directory: URL,
    name rawName: String,
    now: Date = Date()
  ) throws -> URL {
    try NewMigration.write(in: directory, name: rawName, now: now)[0]
  }

  /// Writes an empty migration in the folder's own format (`format`, or the one detected from
  /// its files), numbered as `createMigrationFile(in:name:now:)` numbers it: a file with
  /// strata's markers, goose's or sql-migrate's annotations, an sqlx or bundle file, or an
  /// `.up.sql`/`.down.sql` pair (golang-migrate, and sqlx where the folder has pairs). Each is
  /// left without SQL and with a `-- strata:todo` line in each part, so every command refuses it
  /// until it is written.
  ///
  /// A migration generated from a desired schema is written by the overload that takes its
  /// `content` (Diff/GeneratedMigration+Files.swift).
  ///
  /// A file with a version that is not SQL (`00005_seed.go`) is refused unless `exclusion`
  /// names it; excluded or not, its version is taken, so the new file never shares it.
  ///
  /// - Returns: the new files' URLs (up first).
  /// - Throws: `MigrationError`: an invalid name, an unreadable folder, a folder that mixes
  ///   formats, a file with a version that is not SQL (`notSQL`), no version left, or a file
  ///   that could not be created (nothing is ever written over an existing file; the up file of
  ///   a pair is removed when its down file fails).
  package static func createMigrationFiles(
    in directory: URL,
    name rawName: String,
    format chosen: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion(),
    now: Date = Date()
  ) throws -> [URL] {
    try NewMigration.write(
      in: directory,
      name: rawName,
      format: chosen,
      excluding: exclusion,
      now: now
    )
  }
}
