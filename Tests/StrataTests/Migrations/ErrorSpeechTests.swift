import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Every public error speaks to an app: `localizedDescription` (through `any Error`, the
/// `NSError` bridge on Linux too) is its message, its help names no CLI flag, command,
/// environment variable or shell command, and the remedies it names are values.
@Suite struct ErrorSpeechTests {
  static let sqlite = SQLiteError(extendedCode: 5, message: "database is locked", sql: "BEGIN")
  static let constraint = SQLiteError(extendedCode: 2067, message: "UNIQUE constraint failed")
  static let csv = CSVError(.fieldTooLarge, line: 2, column: 1)
  static let state = MigrationRunState(databaseVersion: 1, completed: [], format: .dbmate)

  /// One value of every case of every public error type.
  static let errors: [any StrataError] =
    migrationErrors + seedErrors + setupErrors + openErrors + otherErrors

  static let migrationErrors: [any StrataError] = [
    MigrationError.foreignKeyMismatch(
      version: 2,
      file: "m/2_b.sql",
      line: 3,
      table: "b",
      foreignKey: "b(y) REFERENCES a(x)",
      reason: "a(x) is neither a's PRIMARY KEY nor UNIQUE",
      isRollback: false
    ),
    MigrationError.stopped(
      .failed(version: 2, file: "m/2_b.sql", line: 1, error: constraint),
      state: MigrationRunState(
        databaseVersion: 1,
        completed: [],
        format: .dbmate,
        dryRun: DryRunTrial(ranOnTheDatabase: true)
      )
    ),
    MigrationError.directoryNotFound(path: "m"),
    MigrationError.folderUnusable(path: "m", reason: "not a folder"),
    MigrationError.invalidFileName(file: "m/x.sql"),
    MigrationError.notSQL(file: "m/1_a.go"),
    MigrationError.versionTooLarge(file: "m/99999999999999999999_a.sql"),
    MigrationError.versionZero(file: "m/0_a.sql"),
    MigrationError.noVersionLeft(file: "m/9223372036854775807_x.sql"),
    MigrationError.notCreated(file: "m/2_b.sql", reason: "exists", exists: true),
    MigrationError.notCreated(file: "m/2_b.sql", reason: "denied", exists: false),
    MigrationError.duplicateVersion(version: 1, files: ["m/1_a.sql", "m/1_b.sql"]),
    MigrationError.downWithoutUp(file: "m/1_a.down.sql"),
    MigrationError.mismatchedPair(version: 1, up: "m/1_a.up.sql", down: "m/1_b.down.sql"),
    MigrationError.unreadable(file: "m/1_a.sql", reason: "denied"),
    MigrationError.unreadable(file: "m/1_a.sql", reason: "link; \(linkOutsideFolder)"),
    MigrationError.emptyMigration(file: "m/1_a.sql"),
    MigrationError.unwrittenPart(file: "m/1_a.sql", line: 2, isDown: false),
    MigrationError.invalidMarker(file: "m/1_a.sql", line: 1, reason: "x"),
    MigrationError.formatProblem(file: "m/1_a.sql", line: 1, format: .goose, reason: "x"),
    MigrationError.mixedFormats(directory: "m", formats: ["goose", "sqlx"], files: ["a", "b"]),
    MigrationError.changedAfterApplied(version: 1, file: "m/1_a.sql", recorded: "a", current: "b"),
    MigrationError.unknownApplied(versions: [9], newestKnown: 1, directory: "m"),
    MigrationError.outOfOrder(versions: [2], newestApplied: 3),
    MigrationError.failed(version: 1, file: "m/1_a.sql", line: 1, error: constraint),
    MigrationError.failed(
      version: 1,
      file: "m/1_a.sql",
      line: 1,
      error: SQLiteError(extendedCode: 1, message: "table a already exists")
    ),
    MigrationError.failed(
      version: 1,
      file: "m/1_a.sql",
      line: 1,
      error: SQLiteError(extendedCode: 13, message: "database or disk is full")
    ),
    MigrationError.rollbackFailed(version: 1, file: "m/1_a.sql", line: 1, error: constraint),
    MigrationError.foreignKeyViolation(
      version: 1,
      file: "m/1_a.sql",
      violations: [],
      preexisting: 0,
      isRollback: true
    ),
    MigrationError.needsNoTransaction(version: 1, file: "m/1_a.sql", line: 1, statement: "VACUUM"),
    MigrationError.needsNoTransaction(version: 1, file: "m/1_a.sql", line: 1, statement: "COMMIT"),
    MigrationError.partiallyApplied(
      version: 1,
      file: "m/1_a.sql",
      line: 3,
      statementsRun: 2,
      error: constraint,
      isRollback: false
    ),
    MigrationError.noTransactionInSingleTransaction(version: 1, file: "m/1_a.sql", format: .dbmate),
    MigrationError.ownTransactionInSingleTransaction(version: 1, file: "m/1_a.sql", line: 1),
    MigrationError.ownTransactionRefused(version: 1, file: "m/1_a.sql", line: 1, reason: "x"),
    MigrationError.irreversible(version: 1, file: "m/1_a.sql", format: .dbmate),
    MigrationError.irreversible(version: 1, file: "m/V1__a.sql", format: .flyway),
    MigrationError.rollbackFileMissing(version: 2),
    MigrationError.unknownTarget(version: 7),
    MigrationError.baselineOnManagedDatabase(appliedCount: 2),
    MigrationError.invalidName(name: "a b"),
    MigrationError.database(path: "app.sqlite3", error: constraint),
    MigrationError.database(path: "app.sqlite3", error: sqlite),
    MigrationError.locked(path: "app.sqlite3", error: sqlite),
    MigrationError.insideTransaction(path: "app.sqlite3"),
    MigrationError.stopped(.locked(path: "app.sqlite3", error: sqlite), state: state),
  ]

  static let seedErrors: [any StrataError] =
    [
      SeedError.directoryNotFound(path: "s"),
      SeedError.folderUnusable(path: "s", reason: "x"),
      SeedError.fileNotFound(file: "s/p.csv"),
      SeedError.emptyFile(file: "s/p.csv"),
      SeedError.noSuchTable(file: "s/p.csv", table: "p", tables: []),
      SeedError.notATable(file: "s/p.csv", table: "p", kind: "view"),
      SeedError.protectedTable(file: "s/p.csv", table: "strata_seeds"),
      SeedError.emptyHeaderName(file: "s/p.csv", line: 1, column: 1, position: 1),
      SeedError.unknownColumn(
        file: "p.csv",
        line: 1,
        column: 1,
        name: "x",
        table: "p",
        columns: []
      ),
      SeedError.generatedColumn(file: "p.csv", line: 1, column: 1, name: "x", table: "p"),
      SeedError.duplicateColumn(file: "p.csv", line: 1, column: 3, name: "x", firstPosition: 1),
      SeedError.missingRequiredColumns(file: "p.csv", table: "p", columns: ["a"]),
      SeedError.fieldCount(file: "p.csv", line: 2, expected: 2, found: 3),
      SeedError.columnMapping(file: "p.csv", table: "p", problem: .headerNotInFile(header: "X")),
      SeedError.noKey(file: "p.csv", table: "p", mode: .missing, uniqueKeys: [["id"]]),
      SeedError.emptyKey(file: "p.csv", line: 2, column: 1, name: "id", mode: .upsert),
      SeedError.duplicateKey(file: "p.csv", line: 3, firstLine: 2, columns: ["id"]),
      SeedError.cascadingReplace(file: "p.csv", table: "p", children: ["c"]),
      SeedError.replaceFailed(file: "p.csv", table: "p", error: constraint),
      SeedError.rowFailed(file: "p.csv", line: 2, column: nil, error: constraint),
      SeedError.rowFailed(file: "p.csv", line: 2, column: nil, error: sqlite),
      SeedError.batchFailed(file: "p.csv", firstLine: 2, lastLine: 9, error: constraint),
      SeedError.database(file: nil, error: sqlite),
      SeedError.sameTableTwice(table: "p", files: ["a.csv", "b.csv"]),
      SeedError.invalidDelimiter(file: "p.csv", delimiter: "ab"),
      SeedError.headerNotDelimited(
        file: "p.csv",
        line: 1,
        header: "a;b",
        delimiter: ",",
        found: ";"
      ),
    ]
    + ([
      .unterminatedQuote, .textAfterClosingQuote, .invalidUTF8, .utf16, .invalidEncoding,
      .corruptCompressedData, .nulByte, .readFailed, .fieldTooLarge, .quotedFieldTooLarge,
      .moreFieldsThanHeader, .tooManyFields,
    ] as [CSVError.Problem]).map {
      SeedError.malformed(file: "p.csv", CSVError($0, line: 2, column: 1))
    }
    + [
      SeedError.malformed(
        file: "p.csv",
        CSVError(.readFailed, line: 1, column: 1, detail: "a link; \(linkOutsideFolder)")
      )
    ]

  static let setupErrors: [any StrataError] = [
    SetupError.resourceMissing(name: "migrations", bundle: "App"),
    SetupError.templateMissing(path: "t.sqlite3"),
    SetupError.templateInvalid(path: "t.sqlite3", reason: "empty"),
    SetupError.templateDisagrees(path: "t.sqlite3", problem: "x"),
    SetupError.databaseIsNewer(path: "app.sqlite3", versions: [9], newestKnown: 1),
    SetupError.copyFailed(path: "app.sqlite3", reason: "x"),
    SetupError.templateNotWritten(path: "t.sqlite3", reason: "x"),
    SetupError.folderFlattened(name: "migrations", container: "App", looseFiles: ["1_a.sql"]),
    SetupError.dryRunNotSupported,
    SetupError.templateStale(path: "t.sqlite3", differences: ["x"]),
    SetupError.seedingFailed(
      path: "app.sqlite3",
      created: true,
      version: 1,
      error: .noSuchTable(file: "p.csv", table: "p", tables: [])
    ),
  ]

  static let openErrors: [any StrataError] = [
    DatabaseOpenError.isDirectory(path: "d"),
    DatabaseOpenError.notADatabase(path: "d"),
    DatabaseOpenError.missing(path: "d"),
    DatabaseOpenError.folderMissing(path: "d/a", folder: "d"),
    DatabaseOpenError.readOnly(path: "d"),
    DatabaseOpenError.folderReadOnly(path: "d/a", folder: "d", creating: false),
    DatabaseOpenError.walInReadOnlyFolder(path: "d/a", folder: "d"),
    DatabaseOpenError.hotJournal(path: "d"),
    DatabaseOpenError.sqlite(path: "d", sqlite),
    DatabaseOpenError.sqlite(path: "d", constraint),
    DatabaseOpenError.notAFile(path: "d", kind: "a named pipe"),
    DatabaseOpenError.unreachable(path: "d", reason: "loop"),
    DatabaseOpenError.folderIsNotAFolder(path: "d/a", folder: "d"),
    DatabaseOpenError.folderNotCreated(path: "d/a", folder: "d", reason: "x"),
    DatabaseOpenError.notCreated(path: "d/a", reason: "syncing it to disk failed: disk full"),
    DatabaseOpenError.beingCreated(path: "d/a", waitedMilliseconds: 200),
    DatabaseOpenError.unreadable(path: "d", reason: "x"),
    DatabaseOpenError.noDefaultLocation(reason: "x"),
    DatabaseOpenError.walSwitchLocked(
      path: "d",
      holder: "process 42 (sqlite3)",
      timeout: 9,
      sqlite
    ),
    DatabaseOpenError.walSwitchLocked(path: "d", holder: nil, timeout: 9, sqlite),
    DatabaseOpenError.walUnavailable(path: ":memory:", journalMode: "memory"),
    DatabaseOpenError.walUnavailable(path: "d", journalMode: "delete"),
  ]

  static let otherErrors: [any StrataError] = [
    InspectionError.noSuchTable(name: "x", tables: ["a"]),
    InspectionError.locked(path: "d", busyTimeoutMs: 10),
    InspectionError.replayFailed(directory: "m", reason: "x"),
    InspectionError.notUTF8(object: "the table t", part: "its SQL"),
    DiffError.lineBreakNotKept(object: "the table t", quoted: "'a\r\nb'"),
    ForeignHistoryError.noRepeatableFile(tool: .flyway, descriptions: ["views"], directory: "m"),
    OutputFileError.exists(path: "t"),
    OutputFileError.notReplaceable(path: "t", reason: "x"),
    OutputFileError.journalBeside(path: "t", journal: "t-wal", pathExists: true),
    OutputFileError.journalBeside(path: "t", journal: "t-wal", pathExists: false),
    SettingsError.fileNotFound(path: "s.toml"),
    SettingsError.unreadable(path: "s.toml", reason: "x"),
    SettingsError.invalid(path: "s.toml", line: 1, column: 1, problem: "x", allowed: "y"),
    SettingsError.unknownSeedFile(path: "s.toml", line: 1, file: "x.csv", folder: "s"),
    ForeignHistoryError.severalFound([.goose, .dbmate]),
    ForeignHistoryError.editedFiles(
      tool: .flyway,
      files: [EditedFile(version: 2, file: "m/V2__b.sql", recorded: "1", current: "2")]
    ),
    ForeignHistoryError.editedFiles(
      tool: .sqlx,
      files: [
        EditedFile(version: 1, file: "m/1_a.sql", recorded: "0a", current: "0b"),
        EditedFile(version: 2, file: "m/2_b.sql", recorded: "0c", current: "0d"),
      ]
    ),
    SeedError.keylessFileChanged(file: "person_info.csv", table: "person_info"),
    ExtensionLoadError(loadable: SQLiteExtension(path: "x.so"), reason: "x"),
    ScriptError(line: 1, statementNumber: 1, underlying: sqlite),
    DatabaseAccessError.writeInsideRead(sql: "DELETE FROM t"),
    DatabaseAccessError.nestedAccess(path: "d"),
    DatabaseAccessError.closed(path: "d"),
    DatabaseAccessError.locked(path: "d", timeout: 10, sqlite),
    DatabaseAccessError.argumentCount(sql: "SELECT ?", expected: 1, given: 0),
    DatabaseAccessError.missingArgument(sql: "SELECT :a", parameter: ":a"),
    DatabaseAccessError.unknownArgument(sql: "SELECT :a", name: "b"),
    DatabaseAccessError.argumentStyle(sql: "SELECT ?", parameter: "?", named: true),
    DatabaseAccessError.argumentsForScript(sql: "SELECT 1; SELECT ?"),
    DatabaseAccessError.parametersInScript(sql: "SELECT 1; SELECT ?"),
    DatabaseAccessError.ownedByQueue(sql: "COMMIT", reason: "x"),
    DatabaseAccessError.outsideAccess(path: "d"),
    DatabaseAccessError.suspended(path: "d"),
    DatabaseAccessError.readOnlyQueue(path: "d"),
    DatabaseAccessError.propertyWithoutColumn(type: "T", table: "t", property: "p", columns: ["a"]),
    DatabaseAccessError.columnWithoutProperty(type: "T", table: "t", column: "a", isKey: false),
    DatabaseAccessError.columnWithoutProperty(type: "T", table: "t", column: "a", isKey: true),
    DatabaseAccessError.valueDoesNotFit(type: "T", table: "t", property: "p", reason: "x"),
    DatabaseAccessError.nestedValue(type: "T", table: "t", property: "p", valueType: "A"),
    DatabaseAccessError.notARow(type: "Int", table: "t"),
    DatabaseAccessError.noSuchTable(type: "T", table: "t"),
    DatabaseAccessError.notAKey(table: "t", given: "a", keys: [["id"]]),
    DatabaseAccessError.notAKey(table: "t", given: "none", keys: []),
    DatabaseAccessError.noRowForKey(type: "T", table: "t", key: "id = 1"),
    RowDecodingError.missingColumn(column: "a", type: "Int", columns: ["b"]),
    RowDecodingError.mismatch(column: "a", type: "Int", value: .text("x")),
    RowDecodingError.mismatch(column: "a", type: "Int", value: .null),
    RowDecodingError.invalidJSON(column: "a", type: "Tags", reason: "x"),
    sqlite,
    constraint,
    csv,
  ]

  @Test(arguments: errors.indices)
  func localizedDescriptionIsTheMessage(index: Int) {
    let error = Self.errors[index]
    let erased: any Error = error
    #expect(!error.message.isEmpty)
    #expect(erased.localizedDescription == error.message)
    #expect((erased as NSError).localizedDescription == error.message)
    #expect((erased as? any LocalizedError)?.recoverySuggestion == error.help)
  }

  @Test(arguments: errors.indices)
  func helpNamesNoCommandLineWord(index: Int) {
    let error = Self.errors[index]
    for text in [error.message, error.help] {
      // A flag is `--` and a letter; an SQL comment (`'-- migrate:up'`) has a space after it.
      #expect(text.range(of: "--[a-z]", options: .regularExpression) == nil, "\(text)")
      for word in ["'strata ", "STRATA_", "chmod", "mkdir"] {
        #expect(!text.contains(word), "\(type(of: error)): \(text)")
      }
    }
  }

  @Test func remediesAreTheValuesTheHelpNames() {
    let error = MigrationError.changedAfterApplied(version: 1, file: "a", recorded: "", current: "")
    #expect(error.remedies == [.newMigration, .allowChanged])
    #expect(
      SeedError.cascadingReplace(file: "p", table: "p", children: []).remedies == [
        .seedModes([.upsert, .missing]), .forceReplace,
      ]
    )
    #expect(SetupError.templateMissing(path: "t").remedies == [.buildTemplate, .withoutTemplate])
    #expect(SettingsError.fileNotFound(path: "s").remedies.isEmpty)
  }

  @Test func aSeedingFailureKeepsItsSeedError() {
    let seed = SeedError.noSuchTable(file: "p.csv", table: "p", tables: [])
    let error = SetupError.seedingFailed(path: "a", created: true, version: 1, error: seed)
    #expect(error.underlyingError as? SeedError == seed)
    #expect(error.help.hasPrefix(seed.help))
    #expect(error.message.hasPrefix(seed.problem))
  }
}
