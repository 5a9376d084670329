import Foundation

/// A foreign key SQLite cannot check or enforce: its parent columns are neither the parent
/// table's PRIMARY KEY nor covered by a UNIQUE index. `PRAGMA foreign_key_check` then fails as
/// a whole ("foreign key mismatch"), and every write to the child table fails while foreign
/// keys are on.
struct ForeignKeyMismatch: Hashable, Sendable {
  /// The child table, which holds the foreign key.
  let table: String
  /// The foreign key as SQL names it: `b(y) REFERENCES a(x)`.
  let foreignKey: String
  /// Why SQLite cannot use it: `a(x) is neither a's PRIMARY KEY nor UNIQUE`.
  let reason: String
  /// The parent table.
  let parent: String

  /// What the database holds now: its violations, counted, and the child tables whose foreign
  /// keys cannot be checked at all (those are left out of the violations).
  struct Check {
    var violations: [ForeignKeyViolation: Int] = [:]
    var mismatched: Set<String> = []
  }

  /// Every violation `PRAGMA foreign_key_check` reports, and the tables with a mismatched
  /// foreign key: when the whole check fails on one, each table is checked alone.
  static func check(_ connection: any SQLDatabase) throws -> Check {
    do {
      return Check(violations: try violations(connection, "PRAGMA foreign_key_check"))
    } catch let error as SQLiteError where isMismatch(error) {
      var found = Check()
      let tables = try connection.rows("SELECT name FROM main.sqlite_master WHERE type = 'table'")
        .compactMap { $0[0].textValue }
      for table in tables {
        do {
          let own = try violations(
            connection,
            "PRAGMA main.foreign_key_check(\(quoteIdentifier(table)))"
          )
          found.violations.merge(own, uniquingKeysWith: +)
        } catch let error as SQLiteError where isMismatch(error) {
          found.mismatched.insert(table)
        }
      }
      return found
    }
  }

  /// The mismatch in words, as every message says it: `b(y) REFERENCES a(x)`, why SQLite cannot
  /// use it, and what that costs `table`.
  static func sentence(foreignKey: String, reason: String, table: String) -> String {
    "the foreign key \(foreignKey) cannot work: \(reason) (SQLite calls it a \"foreign key "
      + "mismatch\" and, with foreign keys on, refuses every write to \(shown(table)))"
  }

  static func isMismatch(_ error: SQLiteError) -> Bool {
    error.message.contains("foreign key mismatch")
  }

  private static func violations(
    _ connection: any SQLDatabase,
    _ sql: String
  ) throws -> [ForeignKeyViolation: Int] {
    var found: [ForeignKeyViolation: Int] = [:]
    for row in try connection.rows(sql) {
      let violation = ForeignKeyViolation(
        table: row[0].textValue ?? "",
        rowid: row[1].integerValue,
        parent: row[2].textValue ?? ""
      )
      found[violation, default: 0] += 1
    }
    return found
  }

  /// The first of `table`'s foreign keys SQLite cannot use, and why: parent columns that are
  /// neither the parent's PRIMARY KEY nor a UNIQUE index's columns, a parent without the key
  /// or column named, a view as parent. When these rules explain nothing (a UNIQUE index with
  /// another collation than the column's), the first foreign key, with SQLite's own reason.
  static func describe(table: String, _ connection: any SQLDatabase) throws -> ForeignKeyMismatch {
    let pragmas = try SchemaPragmas(connection)
    var first: ForeignKeyMismatch?
    for key in try pragmas.foreignKeys(of: table) {
      let named = key.to.allSatisfy { $0 != nil }
      let columns = key.to.compactMap { $0 }
      let foreignKey =
        "\(shown(table))(\(key.from.map(shown).joined(separator: ", "))) REFERENCES "
        + shown(key.parent) + (named ? "(\(columns.map(shown).joined(separator: ", ")))" : "")
      let mismatch = { (reason: String) in
        ForeignKeyMismatch(table: table, foreignKey: foreignKey, reason: reason, parent: key.parent)
      }
      let parent = shown(key.parent)
      first =
        first
        ?? mismatch(
          "SQLite finds no PRIMARY KEY or UNIQUE index of \(parent) it can use for it (a UNIQUE "
            + "index counts only with each column's own collation)"
        )
      let kind = try connection.scalar(
        "SELECT type FROM main.sqlite_master WHERE name = ? COLLATE NOCASE AND type IN "
          + "('table', 'view')",
        [.text(key.parent)]
      )?.textValue
      // No parent table is a violation per row, not a mismatch.
      guard let kind else { continue }
      if kind == "view" { return mismatch("\(parent) is a view; a foreign key needs a table") }
      let table = try columnsAndKey(of: key.parent, pragmas)
      if let missing = columns.first(where: { !table.columns.contains($0.lowercased()) }) {
        return mismatch("\(parent) has no column \(shown(missing))")
      }
      guard named || !table.primaryKey.isEmpty else {
        return mismatch(
          "\(parent) has no PRIMARY KEY, which a foreign key without parent columns refers to"
        )
      }
      let parentColumns = named ? columns : table.primaryKey
      let parentKey = "\(parent)(\(parentColumns.map(shown).joined(separator: ", ")))"
      guard parentColumns.count == key.from.count else {
        return mismatch(
          "it has \(key.from.count) column(s) and \(parentKey) has \(parentColumns.count)"
        )
      }
      let wanted = Set(parentColumns.map { $0.lowercased() })
      let primary = Set(table.primaryKey.map { $0.lowercased() })
      if primary == wanted && table.primaryKey.count == wanted.count { continue }
      if try !uniqueIndexes(of: key.parent, pragmas).contains(wanted) {
        return mismatch("\(parentKey) is neither \(parent)'s PRIMARY KEY nor UNIQUE")
      }
    }
    return first
      ?? ForeignKeyMismatch(
        table: table,
        foreignKey: "of \(shown(table))",
        reason: "SQLite cannot use it",
        parent: table
      )
  }

  /// A name as SQL writes it: bare when it is a plain identifier, else double-quoted.
  static func shown(_ name: String) -> String {
    let plain =
      !name.isEmpty && !(name.first?.isNumber ?? true)
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
      }
    return plain ? name : quoteIdentifier(name)
  }

  /// The table's column names (lowercased) and its PRIMARY KEY columns in key order (empty
  /// for a rowid table without a declared key).
  private static func columnsAndKey(
    of table: String,
    _ pragmas: SchemaPragmas
  ) throws -> (columns: Set<String>, primaryKey: [String]) {
    let columns = try pragmas.columns(of: table)
    return (
      Set(columns.map { $0.name.lowercased() }),
      columns.filter { $0.primaryKeyPosition > 0 }.sorted {
        $0.primaryKeyPosition < $1.primaryKeyPosition
      }.map(\.name)
    )
  }

  /// The column sets (lowercased) of `table`'s complete UNIQUE indexes.
  private static func uniqueIndexes(
    of table: String,
    _ pragmas: SchemaPragmas
  ) throws -> [Set<String>] {
    try pragmas.indexes(of: table).filter { $0.unique && !$0.partial }.map { index in
      Set(try pragmas.keyColumns(of: index.name).compactMap { $0.name?.lowercased() })
    }
  }

  /// The line of `script` that names this foreign key's parent after REFERENCES, else the
  /// first that names the child or the parent table; else the part's first line of SQL.
  func line(in script: MigrationScript) -> Int {
    let lines = script.sql.split(separator: "\n", omittingEmptySubsequences: false)
      .map(Self.words)
    let (child, parent) = (table.lowercased(), parent.lowercased())
    let statements = script.sql.split(separator: "\n", omittingEmptySubsequences: false)
      .firstIndex { line in
        let text = line.trimmingCharacters(in: .whitespaces)
        return !text.isEmpty && !text.hasPrefix("--")
      }
    let found =
      lines.firstIndex { $0.contains("references") && $0.contains(parent) }
      ?? lines.firstIndex { $0.contains(child) }
      ?? lines.firstIndex { $0.contains(parent) }
      ?? statements
    return script.firstLine + (found ?? 0)
  }

  /// The names and keywords of a line, lowercased, quotes dropped.
  private static func words(_ line: Substring) -> Set<String> {
    let separators = line.lowercased().map { character -> Character in
      character.isLetter || character.isNumber || character == "_" || character == "$"
        ? character : " "
    }
    return Set(String(separators).split(separator: " ").map(String.init))
  }
}
