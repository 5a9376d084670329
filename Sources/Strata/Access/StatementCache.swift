/// The statements a `Database` compiled, by SQL, so that running the same SQL again skips
/// SQLite's compiler: the least recently used one is dropped beyond `capacity`.
///
/// The statement used last is checked first, by string equality (a string literal compares
/// by identity, without hashing): a closure that runs one statement again and again does not
/// hash its SQL each time.
struct StatementCache {
  private var entries: [String: CachedStatement] = [:]
  /// The SQL and entry used last (`recentSQL` is empty while there is none).
  private var recentSQL = ""
  private var recentEntry: CachedStatement?
  private var clock = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// The cached statement for `sql`, or nil.
  @inline(__always)
  mutating func entry(for sql: String) -> CachedStatement? {
    clock += 1
    if let recentEntry, recentSQL == sql {
      recentEntry.lastUse = clock
      return recentEntry
    }
    return lookUp(sql)
  }

  /// `entry(for:)` past the statement used last: by hash.
  private mutating func lookUp(_ sql: String) -> CachedStatement? {
    guard let entry = entries[sql] else { return nil }
    entry.lastUse = clock
    (recentSQL, recentEntry) = (sql, entry)
    return entry
  }

  /// Keeps `entry` for `sql`, dropping the least recently used one when full.
  mutating func insert(_ entry: CachedStatement, for sql: String) {
    if entries.count >= capacity,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
    {
      entries[oldest] = nil
      if recentSQL == oldest { (recentSQL, recentEntry) = ("", nil) }
    }
    clock += 1
    entry.lastUse = clock
    entries[sql] = entry
    (recentSQL, recentEntry) = (sql, entry)
  }

  /// Finalizes every statement (before the connection closes).
  mutating func removeAll() {
    entries = [:]
    (recentSQL, recentEntry) = ("", nil)
  }

  var count: Int { entries.count }
}
