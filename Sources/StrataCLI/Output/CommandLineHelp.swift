import Strata

// The library's help speaks of options by their library names; here the CLI puts its own flag
// words in their place (`ErrorOutput.describe` is the one place that uses them).

extension MigrationError {
  /// The library's help in the CLI's words: the flags and environment variables to use.
  var commandLineHelp: String {
    switch underlyingFailure {
    case .folderUnusable:
      return "Point --migrations (or STRATA_MIGRATIONS) at a folder of .sql files this user can "
        + "list (check it with ls -ld; chmod u+rx gives its owner read and search permission)."
    case .directoryNotFound:
      return "Pass --migrations DIR (or set STRATA_MIGRATIONS), or create the folder with "
        + "'strata new NAME'."
    case .noVersionLeft:
      return "If that migration has not been applied to any database yet, rename it with a "
        + "smaller version (such as a UTC timestamp), then run 'strata new' again; otherwise "
        + "write the new migration's file by hand with a version below it and apply it with "
        + "--allow-out-of-order."
    case .formatProblem(_, _, let format, _):
      return "Write the file as \(format.rawValue) reads it (docs/migrations.md lists what each "
        + "format reads), or pass --migration-format NAME if the folder's format was detected "
        + "wrongly."
    case .mixedFormats:
      return "Keep one format per folder (move the other tool's files to a folder of their own), "
        + "or pass --migration-format NAME to read every file as that format."
    case .changedAfterApplied:
      return "Restore the original file and put the change in a new migration "
        + "('strata new NAME'); or pass --allow-changed to accept the edit."
    case .unknownApplied:
      return "Point --migrations at the folder that produced this database, or use a newer "
        + "release of the app; --allow-unknown migrates anyway."
    case .outOfOrder:
      return "Give the migration a version above the newest applied, or pass "
        + "--allow-out-of-order to apply it anyway."
    case .noTransactionInSingleTransaction:
      return "Run without --single-transaction."
    case .notSQL(let file):
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return "Write the step as SQL in a .sql file of the folder's format; or, if this database "
        + "does not need it (or gets it another way), pass --exclude '\(name)' (or a pattern "
        + "such as '*.go') to leave it out on purpose."
    case .rollbackFileMissing:
      return "Restore the migration file, or point --migrations at the folder that has it."
    default:
      return help
    }
  }
}

extension SeedError {
  /// The library's help in the CLI's words: `--mode` and `--force` for the seed modes.
  var commandLineHelp: String {
    switch self {
    case .noKey, .emptyKey:
      return help.replacingOccurrences(of: "seed in the append mode", with: "use --mode append")
    case .cascadingReplace:
      return "Use --mode upsert or --mode missing, or pass --force to replace anyway."
    case .replaceFailed:
      return "Seed or empty the referencing tables first, or use --mode upsert."
    default:
      return help
    }
  }
}
