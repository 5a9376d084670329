/// What a plan reads of a database, read without the migrations, so that it can be read while
/// the folder is (`Migrator.plan(_:)` reads it itself).
package struct RecordedHistory: Sendable {
  /// strata's history rows, as recorded (not yet read in a folder's ordering).
  let rows: [AppliedMigration]
  /// Other tools' histories that record something, read only when strata's own is empty.
  let otherTools: [ForeignHistory]
  /// The repeatable migrations applied; read only when asked for.
  let repeatables: [AppliedRepeatable]

  /// Reads only.
  ///
  /// - Throws: `SQLiteError` when a history table cannot be read; `MigrationVersionError` for
  ///   a row whose version is not one.
  package static func read(
    _ connection: Connection,
    includingRepeatables: Bool
  ) throws -> RecordedHistory {
    try read(connection as any SQLDatabase, includingRepeatables: includingRepeatables)
  }

  /// `read(_:includingRepeatables:)` through the seam to a database (SQLDatabase.swift).
  ///
  /// - Throws: `SQLiteError` when a history table cannot be read; `MigrationVersionError` for
  ///   a row whose version is not one.
  package static func read(
    _ connection: any SQLDatabase,
    includingRepeatables: Bool
  ) throws -> RecordedHistory {
    let rows = try History.read(connection)
    return RecordedHistory(
      rows: rows,
      otherTools: rows.isEmpty
        ? try ForeignHistoryReader.detect(connection).filter { !$0.isEmpty } : [],
      repeatables: includingRepeatables ? try History.readRepeatables(connection) : []
    )
  }
}
