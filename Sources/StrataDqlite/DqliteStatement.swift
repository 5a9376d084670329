import Strata

/// A statement prepared on the leader (PREPARE), run many times by its id: the seam's
/// `SQLStatement` over the wire.
///
/// The wire runs a statement whole, so the first `step` sends it with its bindings and the
/// whole result comes back; later steps read the rows already received. A query runs as QUERY
/// and anything else as EXEC (dqlite replicates what EXEC changes), chosen by the statement's
/// first word (`runsAsQuery`). Every result strata reads through a prepared statement is the
/// schema or its own history: a few rows, never a user's table in bulk.
package final class DqliteStatement: SQLStatement {
  package let sql: String
  private let database: DqliteDatabase
  private let id: UInt32
  /// The database's connection when the statement was prepared: after a reconnect the id
  /// names nothing on the new leader.
  private let connectionNumber: Int
  private let runsAsQuery: Bool
  private var bindings: [SQLValue]
  private var result: RowBatch?
  private var cursor = -1

  init(_ sql: String, database: DqliteDatabase) throws {
    self.sql = sql
    self.database = database
    (id, connectionNumber) = try database.prepareOnLeader(sql)
    let words = SQLStatementScanner.statements(sql).first?.words ?? []
    runsAsQuery = Self.runsAsQuery(words: words, sql: sql)
    bindings = []
  }

  deinit { database.finalizeOnLeader(id, connectionNumber: connectionNumber) }

  /// A statement that returns rows and changes nothing: SELECT, VALUES, WITH … SELECT, EXPLAIN,
  /// and a PRAGMA that reads (no value, or one of the pragmas whose argument names what to
  /// read). EXEC would drop its rows; QUERY must not carry a write.
  package static func runsAsQuery(words: [String], sql: String) -> Bool {
    switch words.first ?? "" {
    case "SELECT", "VALUES", "EXPLAIN": return true
    case "WITH":
      let bare = bareWords(sql)
      let writes = zip(bare, bare.dropFirst() + [""]).contains { word, next in
        ["INSERT", "UPDATE", "DELETE"].contains(word) || (word == "REPLACE" && next == "INTO")
      }
      return !writes
    case "PRAGMA":
      guard !sql.contains("=") else { return false }
      guard sql.contains("(") else { return true }
      let name = bareWords(sql).dropFirst().first { $0 != "MAIN" && $0 != "TEMP" } ?? ""
      return readingPragmasWithArgument.contains(name)
    default: return false
    }
  }

  /// The pragmas whose argument in parentheses says what to read, not a value to set.
  static let readingPragmasWithArgument: Set<String> = [
    "TABLE_INFO", "TABLE_XINFO", "TABLE_LIST", "INDEX_INFO", "INDEX_XINFO", "INDEX_LIST",
    "FOREIGN_KEY_LIST", "FOREIGN_KEY_CHECK", "INTEGRITY_CHECK", "QUICK_CHECK",
  ]

  /// The words of `sql` outside quotes and comments, uppercased, in order: a `WITH` whose body
  /// writes names one of its verbs as a bare word.
  package static func bareWords(_ sql: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    var previous: Character = " "
    var comment: Character?
    var previousClosed = false
    for character in sql {
      defer { previous = character }
      if let open = comment {
        if open == "-" ? character == "\n" : previous == "*" && character == "/" {
          comment = nil
          // The `/` that closed it opens nothing with a `*` after it.
          word = ""
          previousClosed = true
        }
        continue
      }
      defer { previousClosed = false }
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      if (previous == "-" && character == "-")
        || (previous == "/" && character == "*" && !previousClosed)
      {
        word = ""
        comment = character
        continue
      }
      if character.isLetter || character == "_" || (character.isNumber && !word.isEmpty) {
        word.append(character)
        continue
      }
      if !word.isEmpty { words.append(word.uppercased()) }
      word = ""
      switch character {
      case "'", "\"", "`": quote = character
      case "[": quote = "]"
      default: break
      }
    }
    if !word.isEmpty { words.append(word.uppercased()) }
    return words
  }

  package var columnCount: Int { result?.columns.count ?? 0 }

  package func columnName(at index: Int) -> String { result?.columns[index] ?? "" }

  package func bind(_ values: [SQLValue]) throws {
    bindings = values
    result = nil
  }

  package func bind(_ value: SQLValue, at index: Int) throws {
    guard index >= 1, index <= database.maximumVariableNumber else {
      throw SQLiteError(
        extendedCode: 25,
        message: "parameter \(index) is out of range (1...\(database.maximumVariableNumber))",
        sql: sql
      )
    }
    if bindings.count < index {
      bindings += Array(repeating: .null, count: index - bindings.count)
    }
    bindings[index - 1] = value
  }

  @discardableResult
  package func step() throws -> Bool {
    if let result {
      cursor += 1
      return cursor < result.rows.count
    }
    if runsAsQuery {
      result = try database.queryOnLeader(id, connectionNumber: connectionNumber, sql, bindings)
    } else {
      _ = try database.execOnLeader(id, connectionNumber: connectionNumber, sql, bindings)
      result = RowBatch(columns: [], rows: [], more: false)
    }
    cursor = 0
    return !(result?.rows.isEmpty ?? true)
  }

  package func reset() {
    result = nil
    cursor = -1
  }

  package func clearBindings() { bindings = bindings.map { _ in .null } }

  package func value(at index: Int) -> SQLValue {
    guard let result, cursor >= 0, cursor < result.rows.count, index < result.rows[cursor].count
    else { return .null }
    return result.rows[cursor][index]
  }

  package func int64(at index: Int) -> Int64 {
    switch value(at: index) {
    case .integer(let number): number
    case .real(let number): Int64(exactly: number.rounded(.towardZero)) ?? 0
    case .text(let text): Int64(text) ?? 0
    default: 0
    }
  }

  package func string(at index: Int) -> String? {
    switch value(at: index) {
    case .null: nil
    case .text(let text): text
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  package func double(at index: Int) -> Double {
    switch value(at: index) {
    case .real(let number): number
    case .integer(let number): Double(number)
    case .text(let text): Double(text) ?? 0
    default: 0
    }
  }

  package func isNull(at index: Int) -> Bool { value(at: index) == .null }

  package func bindTextNoCopy(_ start: UnsafeRawPointer, count: Int, at index: Int32) throws {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    try bind(.text(String(decoding: bytes, as: UTF8.self)), at: Int(index))
  }

  package func bindBlobCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
    try bind(.blob(Array(bytes)), at: Int(index))
  }

  package func bindInt64(_ value: Int64, at index: Int32) throws {
    try bind(.integer(value), at: Int(index))
  }

  package func bindDouble(_ value: Double, at index: Int32) throws {
    try bind(.real(value), at: Int(index))
  }

  package func bindNull(at index: Int32) throws { try bind(.null, at: Int(index)) }

  /// `runBatch` sent without waiting for its answer (`DqliteDatabase.sendBatchAhead`).
  func sendAhead() throws {
    reset()
    try database.execAheadOnLeader(id, connectionNumber: connectionNumber, sql, bindings)
  }

  /// EXEC with the current bindings. On a failure the rows changed before it are read back
  /// with `changes()` on the same connection (an `INSERT OR FAIL` keeps them, and SQLite
  /// counts them), so the seeder can name the failing row.
  package func runBatch(rowsBeforeFailure: inout Int) throws -> Int {
    reset()
    do {
      return try database.execOnLeader(id, connectionNumber: connectionNumber, sql, bindings)
    } catch let error as SQLiteError {
      if case .integer(let changed)? = try? database.scalar("SELECT changes()", []) {
        rowsBeforeFailure = Int(changed)
      }
      throw error
    }
  }
}
