import Strata

// The library's help speaks of options by their library names; here the CLI puts its own flag
// words in their place (`ErrorOutput.describe`, `status` and `validate` use them).

extension MigrationError {
  /// The library's phrases that name an option, and the CLI's words for each.
  private static let flagWords: [(library: String, flags: String)] = [
    (
      "Use a migrations folder of .sql files this user can list",
      "Point --migrations (or STRATA_MIGRATIONS) at a folder of .sql files this user can list"
    ),
    (
      "Name the migrations folder that exists, or create it with its first migration.",
      "Pass --migrations DIR (or set STRATA_MIGRATIONS), or create the folder with "
        + "'strata new NAME'."
    ),
    (
      "apply it out of order (MigrateOptions.allowOutOfOrder)", "apply it with --allow-out-of-order"
    ),
    (
      "or apply it anyway (MigrateOptions.allowOutOfOrder)",
      "or pass --allow-out-of-order to apply it anyway"
    ),
    (
      "name the folder's format (the format parameter of MigrationSet)",
      "pass --migration-format NAME"
    ),
    (
      "or accept the edit (MigrateOptions.allowChanged)",
      "or pass --allow-changed to accept the edit"
    ),
    ("Use the migrations folder that produced", "Point --migrations at the folder that produced"),
    ("or migrate anyway (MigrateOptions.allowUnknown)", "--allow-unknown migrates anyway"),
    (
      "Run the migrations each in its own transaction (without MigrateOptions.singleTransaction).",
      "Run without --single-transaction."
    ),
    ("or use the migrations folder that has it", "or point --migrations at the folder that has it"),
  ]

  /// The library's help in the CLI's words: the flags and environment variables to use.
  var commandLineHelp: String {
    if case .notSQL(let file) = underlyingFailure {
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return help.replacingOccurrences(
        of: "exclude the file on purpose (MigrationFileExclusion)",
        with: "pass --exclude '\(name)' (or a pattern such as '*.go') to leave it out on purpose"
      )
    }
    return Self.flagWords.reduce(help) { text, words in
      text.replacingOccurrences(of: words.library, with: words.flags)
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
    case .keylessFileChanged(let file, _):
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return help.replacingOccurrences(
        of: "Mark the file to be reloaded",
        with: "Mark the file to be reloaded (reload = true in [seeds.\"\(name)\"] of strata.toml)"
      )
    default:
      return help
    }
  }
}
