import Foundation

/// A migration that fails in the replay for a reason of its own, so `migrate` would fail on it
/// too (a syntax error, a table it needs that the earlier migrations do not create).
package struct ReplayFailure: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The migration's version.
  package let version: MigrationVersion
  /// The migration file, as the user named it.
  package let file: String
  /// The failing statement's line, when the failure is one statement's.
  package let line: Int?
  /// What failed, in SQLite's words, with the statement.
  package let reason: String

  /// "migrations/0003_x.sql:2: SQLite error 1: near "CREAT": syntax error - …".
  package var description: String {
    "\(line.map { "\(file):\($0)" } ?? file): \(reason)"
  }
}

/// Replays migrations into a scratch in-memory database (the replay), never the user's, fenced
/// so that no statement reaches a file (Authorizer.swift: no `ATTACH` of a file, no
/// `VACUUM INTO`, no `load_extension()`); strata's own tables are fenced as `migrate` fences
/// them. A statement the fence refuses, or one that can only fail for want of the database's
/// rows (a constraint) or of a statement the replay skipped, is skipped and reported as not
/// checked; the replay goes on without it.
final class MigrationReplay {
  /// The replay's database.
  let scratch: Connection
  private let directory: String
  /// The folder's format, which decides the parts that manage their own transaction.
  let format: MigrationFormat
  /// The statements not run, in order.
  private(set) var unchecked: [UncheckedStatement] = []
  /// Set when the replay gave up (too many statements skipped in one file, or a foreign-key
  /// check): later migrations are not run, and the schema it built is not the migrations'.
  private(set) var stopped = false
  /// What the scratch's history holds, with skipped statements blanked out.
  private var replayed: [Migration] = []
  /// After this many skipped statements in one file, the rest of it is not checked.
  private static let skipLimit = 20
  /// Whether each down part is run too, against the schema its up part leaves
  /// (MigrationReplay+Down.swift).
  var checksDownParts = false
  /// True when the replay holds exactly the rows `migrate` would meet: it started from no
  /// database (files only), or the database's tables and the replay's were all empty when the
  /// pending migrations began. A constraint failure is then the migration's own, not a want
  /// of the database's rows.
  var rowsAreTheReplays = false

  /// - Parameter configuration: the extensions and functions the migrations call, loaded
  ///   before the fence is raised.
  init(
    directory: String,
    format: MigrationFormat = .dbmate,
    configuration: ConnectionConfiguration
  ) throws {
    scratch = try configuration.openInMemory()
    _ = scratch.raiseFence(.noOutsideFiles)
    self.directory = directory
    self.format = format
  }

  /// Runs `migrations` in order after those replayed before; returns the first that fails for
  /// a reason of its own, after which nothing more is replayed.
  func replay(_ migrations: [Migration]) throws -> ReplayFailure? {
    for migration in migrations {
      if stopped {
        unchecked.append(
          UncheckedStatement(
            wholeFile: migration.up.file,
            reason: "the replay of the migrations stopped before this file"
          )
        )
        continue
      }
      if let failure = try replayOne(migration) { return failure }
    }
    return nil
  }

  private func replayOne(_ original: Migration) throws -> ReplayFailure? {
    var migration = original
    var skipped = 0
    let options = MigrateOptions(allowChanged: true, allowUnknown: true, allowOutOfOrder: true)
    while true {
      let failed: (line: Int, error: SQLiteError, ranBefore: Bool)
      do {
        let set = try MigrationSet(replayed + [migration], directory: directory, format: format)
        try Migrator(set).migrate(scratch, options: options)
        replayed.append(migration)
        guard checksDownParts else { return nil }
        return try checkDown(of: original, afterSkips: skipped > 0 || !unchecked.isEmpty)
      } catch let error as MigrationError {
        switch error.underlyingFailure {
        case .failed(_, _, let line, let error):
          failed = (line, error, false)
        case .partiallyApplied(_, _, let line, _, let error, _):
          failed = (line, error, true)
        case .needsNoTransaction(let version, let file, let line, let what):
          let reason =
            TransactionBoundStatement.transactionControl.contains(what)
            ? "\(what) would end the transaction strata runs this migration in"
            : "\(what) cannot run inside a transaction; mark the part transaction:false"
          return ReplayFailure(version: version, file: file, line: line, reason: reason)
        case .ownTransactionRefused(let version, let file, let line, let reason),
          .ownTransactionFailed(let version, let file, let line, let reason, _, _):
          // A file that manages its own transaction is replayed whole or not at all.
          return ReplayFailure(version: version, file: file, line: line, reason: reason)
        case .foreignKeyMismatch(let version, let file, let line, let table, let key, let why, _):
          // The schema alone decides it: the database's rows cannot change the outcome.
          return ReplayFailure(
            version: version,
            file: file,
            line: line,
            reason: ForeignKeyMismatch.sentence(foreignKey: key, reason: why, table: table)
          )
        case .foreignKeyViolation(_, let file, let violations, _, _):
          stop(
            at: file,
            because: "in the replay of the migrations, which has none of the database's rows, "
              + "it leaves \(violations.count) foreign key violation(s) "
              + "(\(violations.prefix(3).map(\.description).joined(separator: "; ")))"
          )
          return nil
        default:
          throw error
        }
      }
      let file = migration.up.file
      let statement = oneLine(failed.error.sql)
      let reason: String
      if failed.error.changesStrataTable {
        // migrate refuses it too.
        return ReplayFailure(
          version: migration.version,
          file: file,
          line: failed.line,
          reason: failed.error.description
        )
      } else if failed.error.isRefusedByFence {
        reason = "\(failed.error.message); the replay of the migrations (in memory) skipped it"
      } else if failed.error.isConstraint, !rowsAreTheReplays {
        reason =
          "it fails in the replay of the migrations, which has none of the database's rows "
          + "(\(failed.error.message)); the replay skipped it"
      } else if skipped > 0 || (!unchecked.isEmpty && !isSyntaxError(failed.error)) {
        // After a skip in this file, even a syntax error may be what is left of the skipped
        // statement (a trigger body holds `;`).
        reason =
          "it fails in the replay of the migrations (\(failed.error.message)) after the replay "
          + "skipped a statement it may depend on; the replay skipped it too"
      } else {
        return ReplayFailure(
          version: migration.version,
          file: file,
          line: failed.line,
          reason: failed.error.description
        )
      }
      unchecked.append(
        UncheckedStatement(file: file, line: failed.line, statement: statement, reason: reason)
      )
      skipped += 1
      guard skipped <= Self.skipLimit,
        let blanked = blankingStatement(
          of: migration,
          line: failed.line,
          sql: failed.error.sql ?? "",
          withEverythingBefore: failed.ranBefore
        )
      else {
        stop(
          at: file,
          because: "the replay of the migrations skipped too many of its statements to go on"
        )
        return nil
      }
      migration = blanked
    }
  }

  /// `migration` with the statement starting on `line` turned into spaces (line breaks kept, so
  /// later lines keep their numbers), and everything before it too when it already ran.
  private func blankingStatement(
    of migration: Migration,
    line: Int,
    sql: String,
    withEverythingBefore: Bool
  ) -> Migration? {
    let script = migration.up
    var bytes = Array(script.sql.utf8)
    var offset = 0
    var current = script.firstLine
    while current < line, offset < bytes.count {
      if bytes[offset] == UInt8(ascii: "\n") { current += 1 }
      offset += 1
    }
    let needle = Array(sql.utf8)
    guard !needle.isEmpty, offset < bytes.count else { return nil }
    var start: Int?
    var index = offset
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle {
        start = index
        break
      }
      index += 1
    }
    guard let start else { return nil }
    // A statement that failed to compile is quoted up to its first `;`, which may sit inside
    // a trigger's body: blank on to the `;` that completes it.
    var end = start + needle.count
    while end < bytes.count,
      !isCompleteStatement(String(decoding: bytes[start..<end], as: UTF8.self))
    {
      end += 1
      while end < bytes.count, bytes[end - 1] != UInt8(ascii: ";") { end += 1 }
    }
    for position in (withEverythingBefore ? 0 : start)..<end
    where bytes[position] != UInt8(ascii: "\n") {
      bytes[position] = UInt8(ascii: " ")
    }
    let up = MigrationScript(
      sql: String(decoding: bytes, as: UTF8.self),
      file: script.file,
      firstLine: script.firstLine,
      isTransactional: script.isTransactional
    )
    return Migration(
      version: migration.version,
      name: migration.name,
      up: up,
      down: migration.down,
      checksum: migration.checksum
    )
  }

  /// Gives up the replay at `file`: it and every later migration are reported as not checked.
  private func stop(at file: String, because reason: String) {
    stopped = true
    unchecked.append(
      UncheckedStatement(wholeFile: file, reason: reason + "; the replay stopped here")
    )
  }

  /// Records a statement the replay did not check.
  func note(_ statement: UncheckedStatement) {
    unchecked.append(statement)
  }

  /// Whether every table of `connection` other than SQLite's and strata's holds no row.
  static func userTablesAreEmpty(_ connection: Connection) throws -> Bool {
    let tables = try connection.rows(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).compactMap { $0.first?.textValue }.filter { !isStrataOwnTable($0) }
    for table in tables
    where try connection.scalar("SELECT 1 FROM main.\(quoteIdentifier(table)) LIMIT 1") != nil {
      return false
    }
    return true
  }

  func isSyntaxError(_ error: SQLiteError) -> Bool {
    error.message.contains("syntax error") || error.message.contains("incomplete input")
      || error.message.contains("unrecognized token")
  }

  func oneLine(_ sql: String?) -> String? {
    guard let sql else { return nil }
    let text = sql.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: " ")
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}
