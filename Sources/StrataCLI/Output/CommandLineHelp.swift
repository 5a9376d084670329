import Strata
import StrataArguments

// The library's help says each remedy in its own words; the CLI says the same `Remedy` values
// as its flags, commands and environment variables (`ErrorOutput.describe`, `status` and
// `validate` use them). One exhaustive switch: a new remedy does not compile until it is said
// here too.

extension Remedy {
  /// The remedy in the CLI's words, as a clause to put in a sentence.
  var commandLineWords: String {
    switch self {
    case .runAgain(let operation):
      "run 'strata \(operation.commandName)' again"
    case .migrateFirst: "run 'strata migrate' first"
    case .waitForLock:
      "retry when the other process has finished, or raise --busy-timeout (milliseconds)"
    case .useMigrationsFolder: "point --migrations at the folder"
    case .listableMigrationsFolder:
      "point --migrations (or STRATA_MIGRATIONS) at a folder of .sql files this user can list "
        + "(check it with ls -ld; chmod u+rx gives its owner read and search permission)"
    case .existingMigrationsFolder:
      "pass --migrations DIR (or set STRATA_MIGRATIONS), or create the folder with "
        + "'strata new NAME'"
    case .excludeFile(let name):
      "pass --exclude '\(name)' (or a pattern such as '*.go') to leave it out on purpose"
    case .migrationFormat: "pass --migration-format NAME"
    case .newMigration: "a new migration ('strata new NAME')"
    case .allowOutOfOrder: "pass --allow-out-of-order to apply it anyway"
    case .allowChanged: "pass --allow-changed to accept the edit"
    case .allowUnknown: "pass --allow-unknown to migrate anyway"
    case .withoutSingleTransaction: "run without --single-transaction"
    case .baseline:
      "adopt it with 'strata baseline --version V' (V: the newest migration it already has)"
    case .rollbackOrBaseline:
      "to undo a migration, run 'strata rollback'; to adopt a database that predates strata, "
        + "'strata baseline'"
    case .showHistory: "run 'strata status' to see the versions"
    case .existingSeedsFolder:
      "pass --seeds DIR (or set STRATA_SEEDS), or create the folder with CSV files in it"
    case .listableSeedsFolder:
      "point --seeds (or STRATA_SEEDS) at a folder of CSV files this user can list (check it "
        + "with ls -ld; chmod u+rx gives its owner read and search permission)"
    case .seedWholeFolder: "'strata seed' with no file loads every CSV in the seeds folder"
    case .raiseFieldLimit: "raise the limit with --max-field-bytes N"
    case .seedTable: "pass --table NAME"
    case .seedModes(let modes):
      "use " + modes.map { "--mode \($0.rawValue)" }.joined(separator: " or ")
    case .forceReplace: "pass --force to replace anyway"
    case .nullToken(let token): "declare it as a null token (pass --null \(quotedArgument(token)))"
    case .mapColumns: "with --column \"CSV header=column\""
    case .fixSeedFile:
      "fix the seed file, then run 'strata init' again: it loads the seed files not loaded yet"
    case .delimiter(let found):
      "pass \(found == "\t" ? "--delimiter tab" : "--delimiter '\(found)'") (a file named .tsv "
        + "is read with tabs)"
    case .readEncoding: "pass the encoding it is in, such as --encoding windows-1252"
    case .readUTF16: "pass --encoding utf-16"
    case .checkEncoding: "check that --encoding names the encoding the file is saved in"
    case .listTables: "run 'strata inspect' with no table name to list every table and view"
    case .listDifferences: "'strata inspect --diff' lists every difference"
    case .otherDatabasePath(let what): "point --database (or $STRATA_DATABASE) at \(what)"
    case .checkDatabasePath: "check --database"
    case .createDatabase: "run 'strata migrate' or 'strata init' to create the database"
    case .createFolder(let folder): "create \(folder) first (mkdir -p)"
    case .makeWritable(let what, let path): "make \(what) writable (chmod u+w \(path))"
    case .makeReadable(let path):
      "ls -l \(path) shows them; chmod u+rw \(path) lets its owner read and write it"
    case .checkIntegrity:
      "check that the file is a complete SQLite database ('sqlite3 FILE \"PRAGMA "
        + "integrity_check\"')"
    case .buildTemplate: "build it with 'strata template'"
    case .rebuildTemplate: "rebuild the template with 'strata template' from the current migrations"
    case .withoutTemplate: "leave out --template to start from an empty database"
    case .replaceOutput: "pass --force to replace it"
    case .otherOutput: "choose another --output"
    case .retryWithWriteAccess: "run the same command again"
    case .followSymlinks: "pass --follow-symlinks to follow it"
    case .forceRestore: "pass --force to restore anyway"
    case .listBackups: "list them with 'strata restore --list'"
    case .migrateWithoutBackup: "migrate without --backup"
    case .renameInDiff(let rename): "if it was renamed, pass --rename \(rename)"
    case .allowDestructive: "to lose that data on purpose, pass --allow-destructive"
    case .writeSchemaFile: "run 'strata schema' to write it from the migrations"
    case .otherSchemaFile: "name another path with --schema-file or [schema] file in strata.toml"
    case .withoutSchemaFile: "pass --no-schema-file to leave it out"
    }
  }
}

extension Remedy {
  /// The remedy said to a run over many databases (`--databases`): where a single run's words
  /// name `--database`, these name the pattern or list that reached the file.
  var fleetCommandLineWords: String {
    switch self {
    case .otherDatabasePath(let what):
      "have --databases name \(what) instead of this file"
    case .checkDatabasePath: "check the --databases pattern or list that reached this file"
    case .runAgain(let operation):
      "run the same 'strata \(operation.commandName) --databases' command again (the databases "
        + "it finished are not changed again)"
    default: commandLineWords
    }
  }
}

extension Remedy.Operation {
  /// The `strata` command that runs the operation.
  var commandName: String {
    switch self {
    case .migrate: "migrate"
    case .rollback: "rollback"
    case .seed: "seed"
    case .setUp: "init"
    case .validate: "validate"
    case .newMigration: "new"
    }
  }
}

extension StrataError {
  /// The help in the CLI's words: each remedy as its flags and commands.
  var commandLineHelp: String { commandLineHelp(saying: \.commandLineWords) }

  /// The help with each remedy said by `say` (a single run's words, or a fleet run's).
  func commandLineHelp(saying say: (Remedy) -> String) -> String {
    switch self {
    case let error as ForeignHistoryError: error.foreignHistoryHelp
    case let error as any RemedialError: error.help(saying: say)
    default: help
    }
  }
}
