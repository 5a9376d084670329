/// Inspecting or comparing a schema failed. Inspection only reads: the database is unchanged.
public enum InspectionError: StrataError, Equatable {
  /// A name given on the command line is neither a table nor a view.
  case noSuchTable(name: String, tables: [String])
  /// Another connection held a lock longer than the busy timeout (rollback-journal mode).
  case locked(path: String, busyTimeoutMs: Int)
  /// Replaying the migrations into an in-memory database failed, so there is nothing to compare.
  case replayFailed(directory: String, reason: String)

  /// What failed; the database is unchanged.
  public var message: String {
    switch self {
    case .noSuchTable(let name, let tables):
      let shown = tables.prefix(20).map(displayIdentifier).joined(separator: ", ")
      let more = tables.count > 20 ? ", and \(tables.count - 20) more" : ""
      let list = tables.isEmpty ? "the database has no tables" : "tables: \(shown)\(more)"
      return "no such table: \(displayIdentifier(name)) (\(list))"
    case .locked(let path, let busyTimeoutMs):
      return
        "cannot read \(path): database is locked (SQLite error 5); another process held "
        + "a write lock for longer than the busy timeout (\(busyTimeoutMs) ms); nothing was changed"
    case .replayFailed(let directory, let reason):
      return
        "replaying \(directory) into an in-memory database (the replay, not the database "
        + "itself) failed, so there is nothing to compare with: \(reason)"
    }
  }

  /// What to do next, for this kind of failure.
  public var help: String {
    switch self {
    case .noSuchTable:
      "Run 'strata inspect' with no table name to list every table and view."
    case .locked:
      "Retry when the writer finishes, raise --busy-timeout (milliseconds), or switch the "
        + "database to WAL (PRAGMA journal_mode=WAL), where readers never wait for writers."
    case .replayFailed:
      "Fix the migration named above (the live database was not touched), then run the check again."
    }
  }
}
