import Foundation

/// What ``Migrator/adopt(_:from:folder:allowChanged:)`` recorded.
package struct Adoption: Hashable, Sendable, Codable {
  /// The history adopted.
  package let history: ForeignHistory
  /// The versions recorded in strata's history as applied, ascending.
  package let recorded: [MigrationVersion]
  /// Flyway's repeatable migrations recorded as applied, by name: those whose file is unchanged
  /// since Flyway last applied it (a changed one stays due, and the next run applies it, as
  /// Flyway would).
  package var repeatables: [String] = []
  /// Files the other tool would call edited, recorded anyway because the caller accepted them.
  package var acceptedEdits: [EditedFile] = []
}

extension Migrator {
  /// Other tools' histories in the database that record something, when strata's own has
  /// none (once strata has a history, it alone counts).
  ///
  /// - Throws: `SQLiteError` when a history table cannot be read.
  package func otherToolHistories(_ connection: Connection) throws -> [ForeignHistory] {
    try RecordedHistory.read(connection, includingRepeatables: false).otherTools
  }

  /// Takes over another migration tool's history: records in strata's history, in one
  /// transaction and without running them, exactly the versions that tool records as applied
  /// (a gap in its history stays pending), with the checksums of the files here. The other
  /// tool's table is left as it is.
  ///
  /// Flyway and sqlx record a checksum of each script they applied; a file whose checksum is
  /// not that one was edited since, and is refused as that tool refuses it (unless
  /// `allowChanged`). A Flyway repeatable migration whose file is unchanged since Flyway last
  /// applied it is recorded as applied too, so the next run does not apply it again.
  ///
  /// - Parameters:
  ///   - connection: the database, opened for writing.
  ///   - tool: the tool whose history to adopt; `nil` takes the only one found.
  ///   - folder: where the migration files are, to read them again for that tool's checksum;
  ///     nil reads them from the folder the set was read from, else at the path each script
  ///     names.
  ///   - allowChanged: record files the tool would call edited anyway (the database keeps what
  ///     the files it applied did).
  /// - Throws: `ForeignHistoryError`: no such history, several and no tool named, a migration
  ///   that tool records as failed half-way, an entry that is not a version, a version no file
  ///   has, a file edited since the tool applied it; `MigrationError.baselineOnManagedDatabase`
  ///   when strata already has a history, `MigrationError.unreadable` when a file cannot be read
  ///   again; `SQLiteError` when a table cannot be read or the history cannot be written.
  @discardableResult
  package func adopt(
    _ connection: Connection,
    from tool: ForeignTool?,
    folder: URL? = nil,
    allowChanged: Bool = false
  ) throws -> Adoption {
    try HistoryAdoption(migrator: self).adopt(
      connection,
      from: tool,
      folder: folder,
      allowChanged: allowChanged
    )
  }

  /// `migrate` stops before changing anything when another tool's history says what is
  /// applied and strata's says nothing.
  func refuseUnadoptedHistory(_ plan: MigrationPlan) throws {
    guard let history = plan.otherToolHistories.first else { return }
    throw ForeignHistoryError.notAdopted(history)
  }
}
