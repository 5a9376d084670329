/// Tells a part that `strata new` left to be written from a part left empty on purpose.
///
/// A part with no SQL runs as a no-op, as dbmate, golang-migrate, goose and diesel run it (a
/// project keeps such files so its version numbers match its other databases' folders). The
/// files `strata new` writes carry a marker line in each part instead, so a part still as it
/// was written is refused by every command until its SQL is written; deleting the line with the
/// part still empty makes the part a deliberate no-op.
enum UnwrittenPart {
  /// What a marker line starts with (after blanks).
  static let marker = "-- strata:todo"

  /// The line `strata new` writes in each part it creates.
  static let line =
    marker + " write this part's SQL below, or delete this line to leave the part empty on purpose"

  /// What earlier releases wrote for `new`, with no marker: such a file was refused until written,
  /// so it was never applied; it stays refused rather than becoming a no-op after an upgrade.
  private static let earlierTemplates: [[UInt8]] = [
    "-- migrate:up\n\n\n-- migrate:down\n\n",
    "-- +goose Up\n\n\n-- +goose Down\n\n",
    "-- +migrate Up\n\n\n-- +migrate Down\n\n",
  ].map { Array($0.utf8) }

  /// Throws when `script` has no SQL and holds a marker line.
  ///
  /// - Throws: `MigrationError.unwrittenPart` naming the marker's line.
  static func refuse(_ script: MigrationScript, isDown: Bool) throws {
    guard !containsSQL(script.sql) else { return }
    let lines = script.sql.split(separator: "\n", omittingEmptySubsequences: false)
    guard
      let index = lines.firstIndex(where: {
        $0.drop { $0 == " " || $0 == "\t" }.hasPrefix(marker)
      })
    else { return }
    throw MigrationError.unwrittenPart(
      file: script.file,
      line: script.firstLine + index,
      isDown: isDown
    )
  }

  /// Throws when `bytes` (normalized) are exactly a file an earlier release's `new` wrote.
  ///
  /// - Throws: `MigrationError.unwrittenPart` for its up part.
  static func refuseEarlierTemplate(_ bytes: [UInt8], file: String) throws {
    guard earlierTemplates.contains(bytes) else { return }
    throw MigrationError.unwrittenPart(file: file, line: 2, isDown: false)
  }
}
