import StrataArguments

/// `--databases`, `--jobs` and `--fail-fast`, read once: a fleet instead of one `--database`.
struct FleetOptions {
  /// The globs and `@FILE` lists given; empty for one database.
  let databases: [String]
  let jobs: Int
  let failFast: Bool

  /// Refuses `--databases` together with `--database`, and the options the command cannot
  /// apply across a fleet (`refused`, by their flag names, the first given is named).
  ///
  /// - Throws: `UsageError` for `--database` with `--databases`, or a refused option.
  init(_ arguments: ParsedArguments, refusing refused: [(given: Bool, flag: String)] = []) throws {
    databases = arguments[CommonOptions.databases]
    jobs = arguments[CommonOptions.jobs]
    failFast = arguments[CommonOptions.failFast]
    guard isFleet else { return }
    if arguments[CommonOptions.database] != nil {
      throw UsageError(message: "--database and --databases cannot be used together")
    }
    if let flag = refused.first(where: \.given)?.flag {
      throw UsageError(message: "--\(flag) cannot be used with --databases")
    }
  }

  /// Whether `--databases` was given.
  var isFleet: Bool { !databases.isEmpty }
}
