/// Inspecting or comparing a schema failed. Inspection only reads: the database is unchanged.
package enum InspectionError: StrataError, Equatable {
  /// A name given on the command line is neither a table nor a view.
  case noSuchTable(name: String, tables: [String])
  /// Another connection held a lock longer than the busy timeout (rollback-journal mode).
  case locked(path: String, busyTimeoutMs: Int)
  /// Replaying the migrations into an in-memory database failed, so there is nothing to compare.
  /// `underlying`: the migration's or SQLite's error, when one stopped the replay.
  case replayFailed(directory: String, reason: String, underlying: UnderlyingError? = nil)
  /// The replay had to skip statements (or stopped), so the schema the migrations produce is
  /// not known exactly; `notChecked` says which and why.
  case replayIncomplete(directory: String, notChecked: [UncheckedStatement])
  /// An object's name or CREATE statement (`part`) is not valid UTF-8 text, so SQL written
  /// from it would hold other bytes than the database.
  case notUTF8(object: String, part: String)

  /// What failed; the database is unchanged.
  package var message: String {
    switch self {
    case .noSuchTable(let name, let tables):
      let shown = tables.prefix(20).map(displayIdentifier).joined(separator: ", ")
      let more = tables.count > 20 ? ", and \(tables.count - 20) more" : ""
      let list = tables.isEmpty ? "the database has no tables" : "tables: \(shown)\(more)"
      return "no such table: \(displayIdentifier(name)) (\(list))"
    case .locked(let path, let busyTimeoutMs):
      return
        "cannot read \(path): database is locked (SQLite error 5); another connection (in "
        + "this app or another process) held "
        + "a write lock for longer than the busy timeout (\(busyTimeoutMs) ms); nothing was changed"
    case .replayFailed(let directory, let reason, _):
      return
        "replaying \(directory) into an in-memory database (the replay, not the database "
        + "itself) failed, so there is nothing to compare with: \(reason)"
    case .replayIncomplete(let directory, let notChecked):
      let shown = notChecked.prefix(3).map(\.description).joined(separator: "; ")
      let more = notChecked.count > 3 ? "; and \(notChecked.count - 3) more" : ""
      return
        "replaying \(directory) into an in-memory database skipped \(notChecked.count) "
        + "statement(s), so the schema the migrations produce is not known exactly: "
        + "\(shown)\(more)"
    case .notUTF8(let object, let part):
      return
        "the \(part) of the \(object) is not valid UTF-8 text: SQL written from it would hold "
        + "U+FFFD in place of the invalid bytes, other names or values than the database's, so "
        + "none was written; the database is unchanged"
    }
  }

  /// What to do next, for this kind of failure.
  package var help: String { help { $0.description } }

  /// The migration's or SQLite's error that stopped a replay.
  package var underlyingError: (any Error)? {
    if case .replayFailed(_, _, let underlying) = self { return underlying?.error }
    return nil
  }
}

extension InspectionError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .noSuchTable:
      sentence(say(.listTables)) + "."
    case .locked:
      sentence(say(.waitForLock)) + "; or switch the database to WAL (PRAGMA "
        + "journal_mode=WAL), where readers never wait for writers."
    case .replayFailed:
      "Fix the migration named above (the live database was not touched), then run the check again."
    case .replayIncomplete:
      "Compare with a database the migrations were applied to instead of their replay, or make "
        + "the statements named above run without a file (the live database was not touched)."
    case .notUTF8:
      "Recreate the object with UTF-8 text (a value of other bytes as a blob literal, X'FF'); "
        + "the bytes show as U+FFFD when the schema is inspected on a terminal."
    }
  }
}

extension InspectionError {
  /// The replay's failure for an error a replayed migration (or SQLite under it) threw; nil for
  /// any other error, which is its own.
  static func replayFailed(in directory: String, by error: any Error) -> InspectionError? {
    guard let error = error as? any StrataError else { return nil }
    return .replayFailed(
      directory: directory,
      reason: error.message,
      underlying: UnderlyingError(error)
    )
  }
}
