/// The statements a `Database` compiled, by SQL, so that running the same SQL again skips
/// SQLite's compiler: the least recently used one is dropped beyond `capacity`.
struct StatementCache {
  private struct Entry {
    let statement: Statement
    /// The result's column names, read once.
    let columns: [String]
    var lastUse: Int
  }

  private var entries: [String: Entry] = [:]
  private var clock = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// The cached statement for `sql` and its column names, or nil.
  mutating func statement(for sql: String) -> (Statement, columns: [String])? {
    guard let index = entries.index(forKey: sql) else { return nil }
    clock += 1
    entries.values[index].lastUse = clock
    return (entries.values[index].statement, entries.values[index].columns)
  }

  /// Keeps `statement` for `sql`, dropping the least recently used one when full.
  mutating func insert(_ statement: Statement, columns: [String], for sql: String) {
    if entries.count >= capacity,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
    {
      entries[oldest] = nil
    }
    clock += 1
    entries[sql] = Entry(statement: statement, columns: columns, lastUse: clock)
  }

  /// Finalizes every statement (before the connection closes).
  mutating func removeAll() { entries = [:] }

  var count: Int { entries.count }
}
