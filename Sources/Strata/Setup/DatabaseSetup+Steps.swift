import Foundation

/// The steps of `DatabaseSetup.run()` that are more than a call: the journal mode, the
/// protection class, the template's checks and the copy's history.
extension DatabaseSetup {
  /// Switches `connection`'s database to WAL, outside any transaction, unless it is in WAL.
  static func useWriteAheadLog(_ connection: Connection, path: String) throws {
    do {
      guard try connection.scalar("PRAGMA journal_mode")?.textValue != "wal" else { return }
      let mode = try connection.scalar("PRAGMA journal_mode = WAL")?.textValue
      guard mode == "wal" else {
        throw SQLiteError(
          extendedCode: 1,
          message: "SQLite kept the journal mode \(mode ?? "unknown") instead of WAL"
        )
      }
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: path, error)
    }
  }

  /// Gives `url` the setup's `fileProtection`, if any.
  func protect(_ url: URL) throws {
    guard let fileProtection else { return }
    protectionApplied?(url)
    do {
      try fileProtection.apply(to: url)
    } catch let error as CocoaError
      where (error.underlying as? POSIXError)?.code == .EPERM
    {
      // Before the first unlock the system refuses the change itself: the same wait.
      throw DatabaseOpenError.protectedDataUnavailable(path: database.path)
    } catch {
      throw SetupError.protectionNotSet(
        path: url.path,
        protection: fileProtection,
        reason: error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
  }

  /// The template's history must agree with the files: same checksums, no unknown versions.
  static func checkTemplate(
    _ template: URL,
    against set: MigrationSet,
    configuration: ConnectionConfiguration
  ) throws {
    try TemplateInstaller.verify(template, configuration: configuration)
    let plan: MigrationPlan
    do {
      plan = try Migrator(set).plan(configuration.open(path: template.path, mode: .immutable))
    } catch let error as SQLiteError {
      throw SetupError.templateInvalid(
        path: template.path,
        reason: error.message,
        underlying: UnderlyingError(error)
      )
    }
    let problems = Migrator(set).problems(in: plan).filter {
      if case .outOfOrder = $0 { return false }
      return true
    }
    if let problem = problems.first {
      throw SetupError.templateDisagrees(path: template.path, problem: problem.message)
    }
  }

  /// Gives the copy's history rows the time this database got them.
  static func stampHistory(_ copy: URL, configuration: ConnectionConfiguration) throws {
    let connection = try configuration.open(path: copy.path, mode: .readWrite)
    guard try History.exists(connection) else { return }
    try connection.run(
      "UPDATE strata_migrations SET applied_at = ? WHERE applied_at = ?",
      [.text(utcTimestamp(Date())), .text(TemplateBuilder.templateTimestamp)]
    )
  }
}
