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
  /// The parent columns it points at: `a(x)`.
  let parentKey: String
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
  static func check(_ connection: Connection) throws -> Check {
    do {
      return Check(violations: try violations(connection, "PRAGMA foreign_key_check"))
    } catch let error as SQLiteError where isMismatch(error) {
      var found = Check()
      let tables = try connection.rows("SELECT name FROM main.sqlite_schema WHERE type = 'table'")
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

  static func isMismatch(_ error: SQLiteError) -> Bool {
    error.message.contains("foreign key mismatch")
  }

  private static func violations(
    _ connection: Connection,
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

  /// The first of `table`'s foreign keys whose parent columns are neither the parent's PRIMARY
  /// KEY nor a UNIQUE index's columns; a description without parent columns when SQLite finds a
  /// mismatch these rules do not explain.
  static func describe(table: String, _ connection: Connection) throws -> ForeignKeyMismatch {
    let rows = try connection.rows(
      "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq",
      [.text(table)]
    )
    var keys: [(parent: String, from: [String], to: [String?])] = []
    var lastID: Int64?
    for row in rows {
      let id = row[0].integerValue
      if id != lastID || keys.isEmpty {
        keys.append((row[1].textValue ?? "", [], []))
        lastID = id
      }
      keys[keys.count - 1].from.append(row[2].textValue ?? "")
      keys[keys.count - 1].to.append(row[3].textValue)
    }
    for key in keys {
      let primary = try primaryKey(of: key.parent, connection)
      // No parent table is a violation per row, not a mismatch.
      guard let primary else { continue }
      let named = key.to.allSatisfy { $0 != nil }
      let parentColumns = named ? key.to.compactMap { $0 } : primary
      let described = ForeignKeyMismatch(
        table: table,
        foreignKey: "\(table)(\(key.from.joined(separator: ", "))) REFERENCES \(key.parent)"
          + (named ? "(\(parentColumns.joined(separator: ", ")))" : ""),
        parentKey: primary.isEmpty && !named
          ? "\(key.parent)'s PRIMARY KEY (it has none)"
          : "\(key.parent)(\(parentColumns.joined(separator: ", ")))",
        parent: key.parent
      )
      guard parentColumns.count == key.from.count, !parentColumns.isEmpty else { return described }
      let wanted = Set(parentColumns.map { $0.lowercased() })
      if Set(primary.map { $0.lowercased() }) == wanted && primary.count == wanted.count {
        continue
      }
      if try !uniqueIndexes(of: key.parent, connection).contains(wanted) { return described }
    }
    return ForeignKeyMismatch(
      table: table,
      foreignKey: "a foreign key of \(table)",
      parentKey: "its parent columns",
      parent: table
    )
  }

  /// The columns of `table`'s PRIMARY KEY in key order (empty when it has none, a rowid table
  /// without a declared key); nil when there is no such table.
  private static func primaryKey(of table: String, _ connection: Connection) throws -> [String]? {
    let rows = try connection.rows(
      "SELECT name, pk FROM pragma_table_info(?) ORDER BY pk",
      [.text(table)]
    )
    guard !rows.isEmpty else { return nil }
    return rows.filter { ($0[1].integerValue ?? 0) > 0 }.compactMap { $0[0].textValue }
  }

  /// The column sets (lowercased) of `table`'s complete UNIQUE indexes.
  private static func uniqueIndexes(
    of table: String,
    _ connection: Connection
  ) throws -> [Set<String>] {
    let indexes = try connection.rows(
      "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0",
      [.text(table)]
    )
    return try indexes.compactMap { $0[0].textValue }.map { index in
      Set(
        try connection.rows("SELECT name FROM pragma_index_info(?)", [.text(index)])
          .compactMap { $0[0].textValue?.lowercased() }
      )
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
