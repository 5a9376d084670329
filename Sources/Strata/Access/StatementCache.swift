/// The statements a `Database` compiled, by SQL, so that running the same SQL again skips
/// SQLite's compiler: the least recently used one is dropped beyond `capacity`.
///
/// The statement used last is checked first, by string equality (a string literal compares
/// by identity, without hashing): a closure that runs one statement again and again does not
/// hash its SQL each time.
struct StatementCache {
  /// A statement with what is read once from it.
  final class Entry {
    let statement: Statement
    /// The result's column names, read once.
    let columns: [String]
    /// True when every parameter is a plain `?` (or there are none), checked once.
    let isPositional: Bool
    var lastUse = 0
    /// The last `Decodable` type read from this statement that decodes by column name (is not
    /// `SQLValueConvertible`), so that reading it again skips the runtime's conformance check.
    var keyedType: ObjectIdentifier?

    init(_ statement: Statement) {
      self.statement = statement
      columns = (0..<statement.columnCount).map { statement.columnName(at: $0) }
      isPositional = (0..<statement.parameterCount).allSatisfy {
        statement.parameterName(at: $0 + 1)?.first.map { $0 == "?" } ?? true
      }
    }
  }

  private var entries: [String: Entry] = [:]
  private var recent: (sql: String, entry: Entry)?
  private var clock = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// The cached statement for `sql`, or nil.
  mutating func entry(for sql: String) -> Entry? {
    clock += 1
    if let recent, recent.sql == sql {
      recent.entry.lastUse = clock
      return recent.entry
    }
    guard let entry = entries[sql] else { return nil }
    entry.lastUse = clock
    recent = (sql, entry)
    return entry
  }

  /// Keeps `entry` for `sql`, dropping the least recently used one when full.
  mutating func insert(_ entry: Entry, for sql: String) {
    if entries.count >= capacity,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
    {
      entries[oldest] = nil
      if recent?.sql == oldest { recent = nil }
    }
    clock += 1
    entry.lastUse = clock
    entries[sql] = entry
    recent = (sql, entry)
  }

  /// Finalizes every statement (before the connection closes).
  mutating func removeAll() {
    entries = [:]
    recent = nil
  }

  var count: Int { entries.count }
}
