/// One thing `validate` found wrong, with what to do about it.
package struct ValidationProblem: Hashable, Sendable, Codable {
  /// What is wrong.
  package let message: String
  /// What to do about it.
  package let help: String

  /// The migration problem it reports, when it is one, so that a caller can put the help in
  /// its own words (a command line names its flags). Not part of equality or the encoding.
  package let migrationError: MigrationError?

  /// The help with its remedies in a caller's words; nil for a problem made with a fixed help.
  private let wording: (@Sendable ((Remedy) -> String) -> String)?

  /// A problem with its message and help (and the migration problem it reports, if any).
  package init(message: String, help: String, migrationError: MigrationError? = nil) {
    self.message = message
    self.help = help
    self.migrationError = migrationError
    if let migrationError {
      self.wording = { @Sendable say in migrationError.help(saying: say) }
    } else {
      self.wording = nil
    }
  }

  /// A problem whose help names remedies: `wording` says it with any words for them.
  init(message: String, wording: @escaping @Sendable ((Remedy) -> String) -> String) {
    self.message = message
    self.help = wording { $0.description }
    self.migrationError = nil
    self.wording = wording
  }

  /// The help with each remedy said by `say` (a command line's flags).
  package func help(saying say: (Remedy) -> String) -> String {
    wording.map { $0(say) } ?? help
  }

  private enum CodingKeys: String, CodingKey { case message, help }

  /// Decodes the message and help (the migration problem is not encoded).
  ///
  /// - Throws: `DecodingError` when either is missing.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      message: try container.decode(String.self, forKey: .message),
      help: try container.decode(String.self, forKey: .help)
    )
  }

  /// Equal when the message and help are (the migration problem behind them is not compared).
  package static func == (a: Self, b: Self) -> Bool { a.message == b.message && a.help == b.help }

  /// Hashes the message and help, as `==` compares them.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(message)
    hasher.combine(help)
  }
}

/// What `validate` found: the problems, and what it could not check.
package struct ValidationResult: Hashable, Sendable, Codable {
  /// Everything found wrong; empty when all is well.
  package let problems: [ValidationProblem]
  /// Statements the replay of the migrations did not run (see `MigrationReplay`): not
  /// problems, but not checked either.
  package let notChecked: [UncheckedStatement]
  /// Whether the database's schema was compared with the migrations' (false for the files
  /// alone, or when the replay had to stop).
  package let schemaCompared: Bool
}

/// Checks a database against its migrations, for CI and for an app's own health check: the
/// history agrees with the files (nothing changed, unknown or out of order), the schema is
/// what the applied migrations produce (no drift), and every pending migration runs against
/// the schema the earlier ones produce. The files themselves are checked when the
/// `MigrationSet` is read. The migrations run only in a fenced in-memory replay, never in the
/// database, and never reach a file.
package struct Validator: Sendable {
  /// The migrations the database is checked against.
  package let migrations: MigrationSet
  /// The extensions and functions the replay's connection gets (see `DriftCheck`).
  package var configuration: ConnectionConfiguration

  /// A validator of databases against `migrations`, replayed on connections configured with
  /// `configuration`.
  package init(_ migrations: MigrationSet, configuration: ConnectionConfiguration = .none) {
    self.migrations = migrations
    self.configuration = configuration
  }

  /// Every problem found; empty when the database agrees with the migrations. Reads only.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read; `InspectionError` when the replay
  ///   cannot run.
  package func problems(in connection: Connection) throws -> [ValidationProblem] {
    try validate(connection).problems
  }

  /// Checks `connection`'s database (nil: the files only, every migration pending).
  ///
  /// - Parameter connection: the database; nil to check the files only.
  /// - Parameter databaseName: how messages name the database (default: its path).
  /// - Throws: `SQLiteError` when the database cannot be read; `InspectionError` when the replay
  ///   cannot run; `ExtensionLoadError` (or the configuration's own error) when the
  ///   configuration fails.
  package func validate(
    _ connection: Connection?,
    databaseName: String? = nil
  ) throws -> ValidationResult {
    let name = databaseName ?? connection?.path ?? "the database"
    let untouched = connection == nil ? "" : "; \(name) was not changed"
    var problems: [ValidationProblem] = []
    if let connection {
      let migrator = Migrator(migrations)
      problems = migrator.problems(in: try migrator.plan(connection)).map {
        ValidationProblem(message: "\(name): \($0.message)", help: $0.help, migrationError: $0)
      }
    }
    let drift: DriftReport
    let failure: ReplayFailure?
    do {
      (drift, failure) = try DriftCheck(migrations, configuration: configuration).check(
        connection,
        replayingPending: true
      )
    } catch let error as InspectionError {
      return ValidationResult(
        problems: problems + [
          ValidationProblem(message: error.message, wording: { error.help(saying: $0) })
        ],
        notChecked: [],
        schemaCompared: false
      )
    }
    if let failure {
      let applied = drift.replayedVersions.contains(failure.version)
      problems.append(
        ValidationProblem(
          message: "\(applied ? "migration" : "pending migration") \(failure) (in the replay of "
            + "the migrations, an in-memory database\(untouched))",
          wording: { say in
            applied
              ? "The database already has this migration: check that the file is the one that "
                + "was applied (\(say(.showHistory))); the replay never touches \(name)."
              : "Fix the migration so that it runs after the ones before it, then "
                + "\(say(.runAgain(.validate)))."
          }
        )
      )
    }
    problems += drift.differences.map {
      ValidationProblem(
        message: "schema drift in \(name): \($0)",
        wording: { say in
          "Put schema changes in \(say(.newMigration)) rather than changing the database "
            + "directly; \(say(.listDifferences))."
        }
      )
    }
    var notChecked = drift.notChecked
    if connection != nil, !drift.schemaCompared, failure == nil {
      let changed = drift.changedRepeatables
      notChecked.append(
        UncheckedStatement(
          wholeFile: migrations.directory,
          reason: changed.isEmpty
            ? "the schema of \(name) was not compared with the migrations, because the "
              + "replay of the migrations stopped"
            : "the schema of \(name) was not compared with the migrations: "
              + "\(changed.joined(separator: ", ")) changed since it was applied, and the next "
              + "migration run applies it again; compare the schema after that"
        )
      )
    }
    return ValidationResult(
      problems: problems,
      notChecked: notChecked,
      schemaCompared: connection != nil && drift.schemaCompared
    )
  }
}
