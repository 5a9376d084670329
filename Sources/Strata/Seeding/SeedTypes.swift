import Foundation

/// One CSV file to load, and the table it loads into.
public struct SeedFile: Hashable, Sendable {
  /// The file.
  public var url: URL
  /// The table: the file's stem unless overridden (`people.csv --table person_info`; the stem
  /// of `people.csv.gz` is `people`).
  public var table: String
  /// The path shown in messages and reports, such as `seeds/person_info.csv`.
  public var displayPath: String
  /// Read the process's standard input instead of `url` (see `standardInput(table:)`).
  package private(set) var isStandardInput = false
  /// How the file writes its data (null tokens, delimiter, encoding, header names).
  public var format = SeedFileFormat()

  /// A file to load into `table` (default: the file's stem), shown as `displayPath` (default:
  /// its path) in messages.
  public init(url: URL, table: String? = nil, displayPath: String? = nil) {
    self.url = url
    self.table = table ?? Self.table(forFileAt: url)
    self.displayPath = displayPath ?? url.path
  }

  /// The process's standard input (`strata seed - --table T`): it has no name to take the
  /// table from, and it is read once, like a pipe or a FIFO named as a file.
  package static func standardInput(table: String) -> SeedFile {
    var file = SeedFile(
      url: URL(fileURLWithPath: "/dev/stdin"),
      table: table,
      displayPath: "standard input"
    )
    file.isStandardInput = true
    return file
  }

  /// Whether the file can be read only once: standard input, a pipe, a FIFO, a terminal
  /// (anything but a regular file, following symlinks such as `/dev/stdin`). The seeder then
  /// checks its header, loads it and takes its checksum in one pass.
  var isReadOnce: Bool {
    if isStandardInput { return true }
    var info = stat()
    guard stat(url.path, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
  }

  /// The name recorded in the `strata_seeds` ledger: the file's name without its folder, so
  /// the same file seeded from a checkout or from an app bundle is recognised. Standard input,
  /// however it is named (`-`, `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`), is `stdin`.
  package var ledgerName: String {
    let path = url.standardizedFileURL.path
    let names = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/\(getpid())/fd/0"]
    return isStandardInput || names.contains(path) ? "stdin" : url.lastPathComponent
  }
}

/// What a seed run may do.
public struct SeedOptions: Sendable {
  /// How rows meet existing ones: insert missing, upsert, replace or append.
  public var mode: SeedMode
  /// Load and check everything inside the transaction, report, then roll back.
  public var dryRun: Bool
  /// Allow `replace` on a table that other tables reference with `ON DELETE CASCADE`,
  /// `SET NULL` or `SET DEFAULT`.
  public var force: Bool
  /// Skip the files whose checksum is already recorded in `strata_seeds` for their table (what
  /// `init` and an app's first launch use, so each file version is loaded once).
  public var onlyUnrecorded: Bool
  /// The page cache used during the load, in KiB (restored afterwards).
  public var cacheKiB: Int
  /// Rows per INSERT statement (capped by SQLite's limit on `?` parameters).
  public var rowsPerStatement: Int
  /// The largest CSV field, and the largest record, in bytes (default 16 MiB): a larger one
  /// fails the run with its file:line:column as soon as the limit is passed, so a missing
  /// closing quote cannot make the load hold the rest of the file in memory.
  public var maximumFieldBytes: Int

  /// The default `maximumFieldBytes`, 16 MiB: the CSV reader's own limit.
  public static let defaultMaximumFieldBytes = CSVReader.defaultMaximumFieldBytes

  /// Options for a seed run; the defaults insert only rows whose key is not there yet.
  public init(
    mode: SeedMode = .missing,
    dryRun: Bool = false,
    force: Bool = false,
    onlyUnrecorded: Bool = false,
    cacheKiB: Int = 16 * 1024,
    rowsPerStatement: Int = 64,
    maximumFieldBytes: Int = SeedOptions.defaultMaximumFieldBytes
  ) {
    self.mode = mode
    self.dryRun = dryRun
    self.force = force
    self.onlyUnrecorded = onlyUnrecorded
    self.cacheKiB = cacheKiB
    self.rowsPerStatement = rowsPerStatement
    self.maximumFieldBytes = maximumFieldBytes
  }
}

/// What one file did to its table (or, in a dry run, would do).
public struct SeedTableReport: Hashable, Sendable, Codable {
  /// The file as shown to the user.
  public let file: String
  /// The table it loaded into.
  public let table: String
  /// The mode it was loaded with.
  public let mode: SeedMode
  /// SHA-256 (hex) of the file's bytes.
  public let checksum: String
  /// Data rows in the file (the header and trailing blank lines excluded).
  public let rowsRead: Int
  /// New rows inserted.
  public let inserted: Int
  /// Existing rows whose CSV columns changed (`upsert`).
  public let updated: Int
  /// Rows already present and left as they were (`missing`), or already equal (`upsert`).
  public let unchanged: Int
  /// Rows deleted before inserting (`replace`), rows that left the file (`sync`), or the
  /// rows of a keyless file's lines that left it.
  public let deleted: Int
  /// Rows left alone because the user changed or deleted them (`sync`): changed rows keep the
  /// user's values, deleted rows stay deleted, and a user's row with a key new to the file is
  /// kept instead of the file's.
  public let kept: Int
  /// The file's checksum was already in the ledger, so it was not loaded (`onlyUnrecorded`).
  public let alreadyRecorded: Bool
  /// Wall time spent on this file.
  public let durationMs: Int64
  /// Per column, how many unquoted fields each of the file's null tokens turned into NULL
  /// (`SeedFileFormat.nullTokens`); empty when it has none or none matched.
  package let nullCounts: [SeedNullCount]
}

/// What a seed run did.
public struct SeedReport: Hashable, Sendable, Codable {
  /// Per file, in the order they were loaded (parents before children).
  public let tables: [SeedTableReport]
  /// True when everything was rolled back on purpose.
  public let dryRun: Bool
  /// Wall time of the whole run, in milliseconds.
  public let durationMs: Int64

  /// A report of `tables`, for a run that took `durationMs`.
  public init(tables: [SeedTableReport], dryRun: Bool, durationMs: Int64) {
    self.tables = tables
    self.dryRun = dryRun
    self.durationMs = durationMs
  }

  /// Rows inserted, over every table.
  public var inserted: Int { tables.reduce(0) { $0 + $1.inserted } }
  /// Rows updated, over every table.
  public var updated: Int { tables.reduce(0) { $0 + $1.updated } }
  /// Rows left as they were, over every table.
  public var unchanged: Int { tables.reduce(0) { $0 + $1.unchanged } }
  /// Rows deleted first (`replace`), over every table.
  public var deleted: Int { tables.reduce(0) { $0 + $1.deleted } }
  /// Rows kept because the user changed or deleted them (`sync`), over every table.
  public var kept: Int { tables.reduce(0) { $0 + $1.kept } }
  /// Data rows read, over every file.
  public var rowsRead: Int { tables.reduce(0) { $0 + $1.rowsRead } }
  /// The files that were loaded (not skipped as already recorded).
  public var loadedFiles: [String] { tables.filter { !$0.alreadyRecorded }.map(\.file) }
}

/// How far a load has got, for a progress display.
public struct SeedProgress: Hashable, Sendable {
  /// The file being loaded, as shown to the user.
  public let file: String
  /// The table it loads into.
  public let table: String
  /// Position of this file among the files loaded (1-based), and how many there are.
  public let fileNumber: Int
  /// How many files the run loads.
  public let fileCount: Int
  /// Bytes of the file read so far.
  public let bytesRead: Int64
  /// The file's size, when known.
  public let totalBytes: Int64?
  /// Data rows of the file read so far.
  public let rowsRead: Int
  /// True on the last report for a file.
  public let isFinished: Bool
}

/// One row of the `strata_seeds` ledger.
package struct SeedLedgerEntry: Hashable, Sendable, Codable {
  /// The file's name, as the ledger records it (`stdin` for standard input).
  package let file: String
  /// SHA-256 (hex) of the file's bytes: a file with a recorded checksum is not loaded again.
  package let checksum: String
  /// The table the file was loaded into.
  package let table: String
  /// The seed mode used (`missing`, `upsert`, `replace` or `append`).
  package let mode: String
  /// Rows the load inserted.
  package let rowsInserted: Int
  /// Rows the load updated.
  package let rowsUpdated: Int
  /// When the file was loaded, ISO 8601 UTC.
  package let appliedAt: String
  /// The options the file was read with, as settings-file text (`null = ["NA"]`); empty for
  /// strata's defaults. A file whose options change loads again.
  package let options: String
}
