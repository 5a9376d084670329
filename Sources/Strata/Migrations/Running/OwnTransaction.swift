import Foundation

/// A migration part that manages its own transaction: a top-level `BEGIN` … `COMMIT` (or
/// `END`) in the file, as folders run with golang-migrate's `x-no-tx-wrap` hold. strata runs
/// such a part as written, not wrapped in a transaction of its own, and puts its history change
/// and its foreign key check inside the file's last transaction, just before its final
/// `COMMIT`, so the file and its record commit together.
///
/// Found from the file's text only (`SQLStatementScanner`), before anything runs, so a file
/// whose transactions cannot work (a `BEGIN` never committed, a `ROLLBACK`) is refused whole.
struct OwnTransaction {
  enum Kind: Equatable {
    case begin, commit, rollback
    /// `PRAGMA foreign_keys`: a setting of the connection, not a change to the database.
    case connectionSetting
    case other
  }

  /// The part's statements, where `SQLDatabase.executeScript` starts them.
  let statements: [ScannedStatement]
  let kinds: [Kind]
  /// Each transaction of the file: the indices of its `BEGIN` and of its `COMMIT`.
  let blocks: [(begin: Int, commit: Int)]

  /// The index of the `COMMIT` that ends the file's last transaction: the history change and
  /// the foreign key check run just before it.
  var finalCommit: Int { blocks[blocks.count - 1].commit }

  /// Whether `script` may manage its own transaction in a folder of `format`: a part marked to
  /// run outside a transaction in any format, and every part of a format whose files cannot
  /// say so (golang-migrate and dbmate pair files, sqlx, iOS bundles). A transactional part of
  /// dbmate, goose, sql-migrate, diesel or Flyway holding `BEGIN` is refused as before: its own
  /// tool fails on it too, and its marker (diesel's `metadata.toml`, Flyway's script `.conf`)
  /// can take it out of a transaction.
  static func mayManage(_ script: MigrationScript, format: MigrationFormat) -> Bool {
    if !script.isTransactional { return true }
    switch format {
    case .golangMigrate, .sqlx, .bundle: return true
    case .dbmate, .goose, .sqlMigrate:
      return script.file.hasSuffix(".up.sql") || script.file.hasSuffix(".down.sql")
    case .diesel, .flyway: return false
    }
  }

  /// The own transaction of `part`, nil when it may not manage one or holds no `BEGIN`,
  /// `COMMIT`, `END` or `ROLLBACK` of its own.
  ///
  /// - Throws: `MigrationError.ownTransactionRefused` for transactions that cannot work as
  ///   written: a `BEGIN` with no `COMMIT`, a `COMMIT` with no `BEGIN`, one `BEGIN` inside
  ///   another, a `ROLLBACK`; nothing has run.
  static func find(in part: MigrationPart, format: MigrationFormat) throws -> OwnTransaction? {
    let script = part.script
    guard mayManage(script, format: format), mayHoldTransactionControl(script.sql) else {
      return nil
    }
    let statements = SQLStatementScanner.statements(script.sql, firstLine: script.firstLine)
    let kinds = statements.map(kind)
    guard kinds.contains(where: { $0 == .begin || $0 == .commit || $0 == .rollback }) else {
      return nil
    }
    func refuse(_ index: Int, _ reason: String) -> MigrationError {
      .ownTransactionRefused(
        version: part.migration.version,
        file: script.file,
        line: statements[index].line,
        reason: reason
      )
    }
    var blocks: [(begin: Int, commit: Int)] = []
    var open: Int?
    for (index, kind) in kinds.enumerated() {
      switch kind {
      case .begin:
        if let open {
          throw refuse(
            index,
            "BEGIN starts a transaction inside the one begun on line "
              + "\(statements[open].line), which SQLite refuses"
          )
        }
        open = index
      case .commit:
        guard let begin = open else {
          throw refuse(
            index,
            "\(statements[index].words[0]) ends no transaction: no BEGIN of the file comes "
              + "before it"
          )
        }
        blocks.append((begin, index))
        open = nil
      case .rollback:
        throw refuse(
          index,
          "ROLLBACK would undo the file's own transaction every time the file runs, so strata "
            + "does not run a file that rolls itself back"
        )
      case .connectionSetting, .other:
        continue
      }
    }
    if let open {
      throw refuse(
        open,
        "the file's transaction begun here has no COMMIT or END, so it would never commit"
      )
    }
    return OwnTransaction(statements: statements, kinds: kinds, blocks: blocks)
  }

  /// False when `sql` cannot hold a `BEGIN`, `COMMIT` or `ROLLBACK` statement (its text has no
  /// such word in any case), so a file of a million `INSERT`s is not scanned. An `END` with none
  /// of them is left to SQLite, which refuses it outside a transaction (and strata inside one).
  private static func mayHoldTransactionControl(_ sql: String) -> Bool {
    ["begin", "commit", "rollback"].contains {
      sql.range(of: $0, options: .caseInsensitive) != nil
    }
  }

  private static func kind(_ statement: ScannedStatement) -> Kind {
    let words = statement.words + ["", ""]
    switch words[0] {
    case "BEGIN": return .begin
    case "COMMIT", "END": return .commit
    case "ROLLBACK":
      let toSavepoint = words[1] == "TO" || (words[1] == "TRANSACTION" && words[2] == "TO")
      return toSavepoint ? .other : .rollback
    case "PRAGMA" where words[1] == "FOREIGN_KEYS":
      return .connectionSetting
    default: return .other
    }
  }

  /// `sql` (the part's text) with the file's `BEGIN` and `COMMIT` statements turned into
  /// spaces, line breaks kept: what runs inside a transaction of strata's, for the replay's
  /// check of a down part.
  func withoutTransactionControl(_ sql: String) -> String {
    var bytes = Array(sql.utf8)
    for (index, kind) in kinds.enumerated() where kind == .begin || kind == .commit {
      var position = statements[index].start
      while position < bytes.count {
        let byte = bytes[position]
        if byte != UInt8(ascii: "\n") { bytes[position] = UInt8(ascii: " ") }
        position += 1
        if byte == UInt8(ascii: ";") { break }
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The index of the statement that starts at byte `offset`, as `executeScript` starts it.
  func index(startingAt offset: Int) -> Int? {
    var low = 0
    var high = statements.count
    while low < high {
      let middle = (low + high) / 2
      if statements[middle].start < offset { low = middle + 1 } else { high = middle }
    }
    return low < statements.count && statements[low].start == offset ? low : nil
  }

  /// What of the part stays committed when statement `failed` (an index) failed, or the
  /// foreign key check before the final `COMMIT` did (`failed == finalCommit`).
  /// With `changedMeanwhile`, another process applied (or rolled back) the migration while the
  /// file ran, and the history says so.
  func outcome(
    failedAt failed: Int,
    version: MigrationVersion,
    isRollback: Bool,
    changedMeanwhile: Bool = false
  ) -> OwnTransactionOutcome {
    let line = { (index: Int) in statements[index].line }
    if failed > finalCommit {
      let after = statements.count - failed - 1
      return OwnTransactionOutcome(
        description: "the file's last transaction committed on line \(line(finalCommit)) with "
          + (isRollback
            ? "version \(version) removed from the history (rolled back)"
            : "version \(version) recorded as applied")
          + "; the statement on line \(line(failed)) after it failed, and the \(after) "
          + "statement(s) after that did not run",
        kept: true,
        recorded: true
      )
    }
    var kept: [String] = []
    var rolledBack: String?
    for block in blocks where block.begin < failed {
      if block.commit < failed {
        kept.append("the transaction on lines \(line(block.begin))–\(line(block.commit))")
      } else {
        rolledBack = "the file's transaction begun on line \(line(block.begin)) was rolled back"
      }
    }
    let outside = (0..<failed).filter { index in
      kinds[index] == .other && !blocks.contains { $0.begin < index && index < $0.commit }
    }
    if !outside.isEmpty {
      let lines = outside.prefix(10).map { String(line($0)) }.joined(separator: ", ")
      kept.append(
        "the statement(s) outside its transactions on line(s) \(lines)"
          + (outside.count > 10 ? " and \(outside.count - 10) more" : "")
      )
    }
    let record =
      changedMeanwhile
      ? "the history records what the other process did, so what the file committed before "
        + "ran twice"
      : isRollback
        ? "version \(version) was not rolled back and is still recorded as applied"
        : "version \(version) is not recorded as applied"
    var parts = [rolledBack ?? "the failing statement ran outside the file's transactions"]
    parts.append(
      kept.isEmpty
        ? "nothing of the file was committed"
        : "committed before it and not undone: " + kept.joined(separator: ", ")
    )
    parts.append(record)
    return OwnTransactionOutcome(
      description: parts.joined(separator: "; "),
      kept: !kept.isEmpty,
      recorded: false
    )
  }
}

/// What a part that manages its own transaction left when it failed, for its error.
public struct OwnTransactionOutcome: Hashable, Sendable {
  /// What stays committed and what was rolled back, as the message says it.
  public let description: String
  /// Whether any of the part's statements stay committed.
  public let kept: Bool
  /// Whether the part's history change committed (a statement after its last transaction
  /// failed).
  public let recorded: Bool
}
