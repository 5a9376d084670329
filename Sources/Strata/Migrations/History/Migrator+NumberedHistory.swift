extension Migrator {
  /// The applied migrations as this folder names them: rows recorded by number for a sql-migrate
  /// folder read by names (``recordedByName(_:)``), every version read in the folder's ordering
  /// (version 1 recorded from `1_a.up.sql` is diesel's `1_a/` or Flyway's `V1__a.sql`, not an
  /// unknown version beside a pending one, which would apply the migration twice). The one
  /// reading of the history that plans, drift checks and template checks share.
  ///
  /// - Throws: `SQLiteError`; `MigrationVersionError` for a row whose version is not one.
  func applied(_ connection: any SQLDatabase) throws -> [AppliedMigration] {
    applied(try History.read(connection))
  }

  /// `rows`, as `History.read` returns them, read in this folder's ordering.
  func applied(_ rows: [AppliedMigration]) -> [AppliedMigration] {
    let ordering = migrations.versionOrdering
    // Only a sql-migrate folder's rows are renamed, and only rows of another ordering read anew.
    let named = ordering == .sqlMigrate ? recordedByName(rows) : rows
    guard named.contains(where: { $0.version.ordering != ordering }) else { return named }
    return named.map { $0.read(as: ordering) }
  }

  // MARK: - A sql-migrate folder's numbered history

  /// `applied` with each row strata recorded by number for a file of this sql-migrate folder
  /// given that file's version (its name).
  ///
  /// A sql-migrate folder whose names are all `<version>_<name>.sql` with distinct numbers is
  /// versioned by those numbers, as strata always read it; once it holds another name
  /// (`03-config.sql`, a second file of one number) every version is the file name, as
  /// sql-migrate records it. A row recorded by number then still names its file: the one whose
  /// name gives that number and that name. Such a row reads as applied, never as pending.
  func recordedByName(_ applied: [AppliedMigration]) -> [AppliedMigration] {
    applied.map { row in
      guard let version = fileVersion(ofNumbered: row) else { return row }
      return AppliedMigration(
        version: version,
        name: row.name,
        checksum: row.checksum,
        appliedAt: row.appliedAt,
        durationMs: row.durationMs
      )
    }
  }

  /// Rewrites the rows ``recordedByName(_:)`` maps, so that the history names each file as the
  /// folder now versions it (in one transaction; nothing else changes). A no-op for any other
  /// folder.
  ///
  /// - Throws: `SQLiteError` when the history cannot be read or written.
  func rewriteNumberedRows(_ connection: any SQLDatabase) throws {
    guard migrations.versionOrdering == .sqlMigrate else { return }
    try connection.transaction(.immediate) {
      let renamed = try History.read(connection).compactMap { row in
        fileVersion(ofNumbered: row).map { (row.version, $0) }
      }
      guard !renamed.isEmpty else { return }
      try HistoryWriter(connection).createTableIfNeeded()
      for (number, name) in renamed {
        let update = try connection.prepare(
          "UPDATE strata_migrations SET version = ?, kind = ? WHERE version = ?"
        )
        try update.bind([History.value(name), .text(name.ordering.rawValue), History.value(number)])
        _ = try update.step()
      }
    }
  }

  /// The file a numbered row stands for in a folder versioned by sql-migrate's names: the one
  /// file whose name is `<that number>_<the row's name>.sql`.
  private func fileVersion(ofNumbered row: AppliedMigration) -> MigrationVersion? {
    guard migrations.versionOrdering == .sqlMigrate, let number = row.version.integerValue
    else { return nil }
    let files = migrations.migrations.filter { migration in
      MigrationParser.parseFileName(migration.version.text)
        == MigrationParser.FileName(version: number, name: row.name, part: .whole)
    }
    return files.count == 1 ? files[0].version : nil
  }
}
