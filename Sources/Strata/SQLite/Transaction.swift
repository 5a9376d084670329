/// How a transaction takes its locks.
package enum TransactionKind: String, Sendable {
  /// Locks on the first read or write.
  case deferred = "DEFERRED"
  /// Takes the write lock at once, so a read-then-write cannot be raced by another writer.
  case immediate = "IMMEDIATE"
  /// Takes the exclusive lock at once.
  case exclusive = "EXCLUSIVE"
}

extension Connection {
  /// Runs `body` inside `BEGIN <kind>` … `COMMIT`; rolls back when it throws.
  ///
  /// A failed rollback never hides the first error.
  ///
  /// - Throws: What `body` throws, after the rollback; `SQLiteError` when `BEGIN` or `COMMIT`
  ///   fails.
  package func transaction<T>(
    _ kind: TransactionKind = .immediate,
    _ body: () throws -> T
  ) throws
    -> T
  {
    try execute("BEGIN \(kind.rawValue)")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if !isAutocommit { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Runs `body` inside a savepoint, which nests inside a transaction; rolls back to it when
  /// `body` throws.
  ///
  /// - Throws: What `body` throws, after rolling back to the savepoint; `SQLiteError` when the
  ///   savepoint cannot be opened or released.
  package func savepoint<T>(_ name: String = "strata", _ body: () throws -> T) throws -> T {
    let quoted = quoteIdentifier(name)
    try execute("SAVEPOINT \(quoted)")
    do {
      let result = try body()
      try execute("RELEASE \(quoted)")
      return result
    } catch {
      try? execute("ROLLBACK TO \(quoted)")
      try? execute("RELEASE \(quoted)")
      throw error
    }
  }
}
