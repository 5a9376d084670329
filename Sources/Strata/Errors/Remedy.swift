/// A step an error's help asks for that a program names in its own words: an option, a
/// setting, running something again.
///
/// The library's `help` says each remedy in plain words and library names
/// (`MigrateOptions.allowChanged`); a command-line tool says the same value as its flags and
/// commands. Both render every case with one exhaustive switch, so a new remedy cannot be added
/// without both saying it. ``StrataError/remedies`` lists the remedies an error's help names, so
/// that an app can offer one as an action.
public enum Remedy: Hashable, Sendable {
  /// An operation a remedy asks to run (again, or first).
  public enum Operation: String, Hashable, Sendable {
    /// Migrating the database (`Migrator.migrate`).
    case migrate
    /// Rolling migrations back (`Migrator.rollback`).
    case rollback
    /// Seeding (`Seeder.seed`).
    case seed
    /// The setup at launch (`DatabaseSetup.run`), which loads the seed files not loaded yet.
    case setUp
    /// Validating the database against its migrations (`Validator`).
    case validate
    /// Creating a new migration file.
    case newMigration
  }

  /// Run the operation again, after fixing what the help says.
  case runAgain(Operation)
  /// Migrate the database before seeding it.
  case migrateFirst
  /// Wait for, or wait longer for, the connection that holds the database's lock.
  case waitForLock
  /// Use a migrations folder (the one that produced the database, or that has the files).
  case useMigrationsFolder
  /// Use a migrations folder this user can list.
  case listableMigrationsFolder
  /// The migrations folder does not exist: name one that does, or create it.
  case existingMigrationsFolder
  /// Leave a file that is not SQL out of the migrations on purpose.
  case excludeFile(name: String)
  /// Name the migrations folder's format instead of detecting it.
  case migrationFormat
  /// Put a change in a new migration.
  case newMigration
  /// Apply a migration older than the newest applied one anyway.
  case allowOutOfOrder
  /// Accept an applied migration's edited file.
  case allowChanged
  /// Migrate a database that has versions the folder does not.
  case allowUnknown
  /// Run each migration in its own transaction rather than the whole run in one.
  case withoutSingleTransaction
  /// Record the migrations a database already has as applied (a baseline).
  case baseline
  /// Undo a migration, or adopt a database that predates strata.
  case rollbackOrBaseline
  /// Look at the database's history: the applied and pending versions.
  case showHistory
  /// The seeds folder does not exist: name one that does, or create it.
  case existingSeedsFolder
  /// Use a seeds folder this user can list.
  case listableSeedsFolder
  /// Seed every file of the seeds folder rather than a named one.
  case seedWholeFolder
  /// Raise the largest field a seed file may hold.
  case raiseFieldLimit
  /// Name the table a seed file loads.
  case seedTable
  /// Seed in one of these modes.
  case seedModes([SeedMode])
  /// Replace a table's rows even though other tables reference it with cascading keys.
  case forceReplace
  /// Read this token of the file as NULL.
  case nullToken(String)
  /// Map the file's header names to the table's columns.
  case mapColumns
  /// Correct a seed file the setup refused: in an app, the file is bundled, so only the app's
  /// next version can.
  case fixSeedFile
  /// Read the file with this delimiter.
  case delimiter(Character)
  /// Read the file in the encoding it is saved in.
  case readEncoding
  /// Read the file as UTF-16.
  case readUTF16
  /// The file's encoding is not the one it is saved in.
  case checkEncoding
  /// List every table and view of the database.
  case listTables
  /// Look at every difference between the schema and the migrations.
  case listDifferences
  /// Give the database another path (`what`: the kind of path, such as "a writable copy").
  case otherDatabasePath(String)
  /// Check the database's path.
  case checkDatabasePath
  /// Create the database by migrating or setting it up.
  case createDatabase
  /// Create a folder that is missing.
  case createFolder(String)
  /// Give the file or folder (`what`: "it", "the folder") at the path write permission.
  case makeWritable(String, path: String)
  /// Give the file at the path read and write permission for its owner.
  case makeReadable(String)
  /// Check that the file is a complete SQLite database.
  case checkIntegrity
  /// Build the template from the current migrations.
  case buildTemplate
  /// Build the template again from the current migrations.
  case rebuildTemplate
  /// Set up without a template, from an empty database.
  case withoutTemplate
  /// Replace an existing output file on purpose.
  case replaceOutput
  /// Write the output elsewhere.
  case otherOutput
  /// Open the database again (with write access, after what the help says).
  case retryWithWriteAccess
  /// Follow symbolic links out of the folders strata reads.
  case followSymlinks
  /// Restore a backup even though it undoes migrations the database has.
  case forceRestore
  /// List the backups of the database.
  case listBackups
  /// Migrate without writing a backup first.
  case migrateWithoutBackup
  /// Say that a table or column of the schema was renamed (`old=new`, `table.old=new`).
  case renameInDiff(String)
  /// Generate a migration that drops tables or columns, or narrows types, on purpose.
  case allowDestructive
  /// Write the schema file again, from the migrations (or from the database just changed).
  case writeSchemaFile
  /// Keep the schema file at another path.
  case otherSchemaFile
  /// Leave the schema file out of this run.
  case withoutSchemaFile

  /// The remedy in the library's words, as a clause to put in a sentence.
  public var description: String {
    switch self {
    case .runAgain(let operation):
      switch operation {
      case .migrate: "migrate again"
      case .rollback: "roll back again"
      case .seed: "seed again"
      case .setUp: "run the setup again"
      case .validate: "validate again"
      case .newMigration: "create the migration again"
      }
    case .migrateFirst: "migrate the database first"
    case .waitForLock:
      "try again when the other connection (in this app or another process) has finished, or "
        + "wait longer for it (a larger busy timeout)"
    case .useMigrationsFolder: "use the migrations folder"
    case .listableMigrationsFolder:
      "use a migrations folder of .sql files this user can list (it needs read and search "
        + "permission)"
    case .existingMigrationsFolder:
      "name the migrations folder that exists, or create it with its first migration"
    case .excludeFile: "exclude the file on purpose (MigrationFileExclusion)"
    case .migrationFormat: "name the folder's format (the format parameter of MigrationSet)"
    case .newMigration: "a new migration"
    case .allowOutOfOrder: "apply it anyway (MigrateOptions.allowOutOfOrder)"
    case .allowChanged: "accept the edit (MigrateOptions.allowChanged)"
    case .allowUnknown: "migrate anyway (MigrateOptions.allowUnknown)"
    case .withoutSingleTransaction:
      "run the migrations each in its own transaction (without MigrateOptions.singleTransaction)"
    case .baseline:
      "record the migrations it already has as applied (a baseline to the newest one it has)"
    case .rollbackOrBaseline:
      "to undo a migration, roll it back; to adopt a database that predates strata, record a "
        + "baseline"
    case .showHistory: "look at the applied and pending versions (Migrator.status)"
    case .existingSeedsFolder:
      "name the seeds folder that exists, or create it with CSV files in it"
    case .listableSeedsFolder:
      "use a seeds folder of CSV files this user can list (it needs read and search permission)"
    case .seedWholeFolder: "seeding the seeds folder loads every CSV in it"
    case .raiseFieldLimit: "raise the limit (SeedOptions.maximumFieldBytes)"
    case .seedTable: "name its table (SeedFile's table)"
    case .seedModes(let modes):
      "seed in the " + modes.map(\.rawValue).joined(separator: " or ") + " mode"
    case .forceReplace: "replace anyway (SeedOptions.force)"
    case .nullToken: "declare it as a null token (the file's null tokens)"
    case .mapColumns: "in the file's header names"
    case .fixSeedFile:
      "the seed file bundled with the app is wrong, and a user cannot change it: ship the "
        + "corrected file in the app's next version"
    case .delimiter(let delimiter): "set the file's delimiter to \(delimiterName(delimiter))"
    case .readEncoding:
      "read it in the encoding it is in (the file's encoding, such as windows-1252)"
    case .readUTF16: "read it as UTF-16 (the file's encoding utf-16)"
    case .checkEncoding: "check that the file's encoding is the one the file is saved in"
    case .listTables: "list the tables and views (SchemaInspector) to see every name"
    case .listDifferences: "the drift report lists every difference"
    case .otherDatabasePath(let what): "give the database \(what)"
    case .checkDatabasePath: "check the database's path"
    case .createDatabase: "create the database by migrating it or setting it up"
    case .createFolder(let folder): "create \(folder) first"
    case .makeWritable(let what, let path):
      "make \(what) writable (give this user write permission on \(path))"
    case .makeReadable(let path): "give this user read and write permission on \(path)"
    case .checkIntegrity: "check that the file is a complete SQLite database (its integrity check)"
    case .buildTemplate: "build it from the migrations (TemplateBuilder)"
    case .rebuildTemplate: "rebuild the template from the current migrations (TemplateBuilder)"
    case .withoutTemplate: "set up without a template to start from an empty database"
    case .replaceOutput: "replace it on purpose"
    case .otherOutput: "choose another output path"
    case .retryWithWriteAccess: "open it again"
    case .followSymlinks: "follow links out of the folder on purpose (followsSymlinks)"
    case .forceRestore: "restore anyway (the force parameter of DatabaseBackup.restore)"
    case .listBackups: "list the database's backups (DatabaseBackup.list)"
    case .migrateWithoutBackup: "migrate without a backup (MigrateOptions.backup nil)"
    case .renameInDiff(let rename):
      "if it was renamed, say so (SchemaDiffOptions.renames: \(rename))"
    case .allowDestructive:
      "to lose that data on purpose, allow destructive changes (SchemaDiffOptions.allowsDestructive)"
    case .writeSchemaFile: "write it from the migrations (SchemaFile.write(producedBy:))"
    case .otherSchemaFile: "keep the schema file at another path (SchemaFile's url)"
    case .withoutSchemaFile: "leave the schema file out of this check"
    }
  }
}

/// An error whose help names remedies: it renders its help with any wording of them.
package protocol RemedialError: StrataError {
  /// The help, with each remedy said by `say`.
  func help(saying say: (Remedy) -> String) -> String
}

extension RemedialError {
  /// The help in the library's words.
  public var help: String { help { $0.description } }
}

/// `text` with its first letter capitalized: a remedy that begins a sentence.
func sentence(_ text: String) -> String {
  text.prefix(1).uppercased() + text.dropFirst()
}
