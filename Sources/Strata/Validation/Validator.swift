/// One thing `validate` found wrong, with what to do about it.
public struct ValidationProblem: Hashable, Sendable, Codable {
  public let message: String
  public let help: String

  public init(message: String, help: String) {
    self.message = message
    self.help = help
  }
}

/// Checks a database against its migrations, for CI and for an app's own health check: the
/// history agrees with the files (nothing changed, unknown or out of order), and the schema is
/// what the applied migrations produce (no drift). The files themselves are checked when the
/// `MigrationSet` is read.
public struct Validator: Sendable {
  public let migrations: MigrationSet

  public init(_ migrations: MigrationSet) {
    self.migrations = migrations
  }

  /// Every problem found; empty when the database agrees with the migrations. Reads only.
  public func problems(in connection: Connection) throws -> [ValidationProblem] {
    let migrator = Migrator(migrations)
    var problems = migrator.problems(in: try migrator.plan(connection)).map {
      ValidationProblem(message: $0.message, help: $0.help)
    }
    let drift: DriftReport
    do {
      drift = try DriftCheck(migrations).check(connection)
    } catch let error as InspectionError {
      return problems + [ValidationProblem(message: error.message, help: error.help)]
    }
    problems += drift.differences.map {
      ValidationProblem(
        message: "schema drift: \($0)",
        help: "Put schema changes in a new migration ('strata new NAME') rather than changing "
          + "the database directly; 'strata inspect --diff' lists every difference."
      )
    }
    return problems
  }
}
