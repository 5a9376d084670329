#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// What a statement does beyond reading and writing tables, as SQLite's authorizer reports it
/// while it compiles the statement (the way GRDB's `StatementAuthorizer` tells a transaction
/// statement from the others): no word matching, so comments, quoting and case never fool it.
///
/// Recorded for every statement `executeScript` prepares while the connection has an authorizer
/// (any fence raised, Authorizer.swift), and read back with `Connection.lastPreparedKind`.
package enum PreparedStatementKind: Equatable, Sendable {
  /// SQLite asked the authorizer nothing while compiling it (`VACUUM` is one such statement,
  /// and so is one that failed to parse): only its text can tell what it is.
  case unreported
  /// `BEGIN`, `COMMIT` (or `END`), `ROLLBACK`: `verb` as SQLite names it (`END` is `COMMIT`).
  case transaction(verb: String)
  /// `SAVEPOINT`, `RELEASE`, `ROLLBACK TO`: `verb` as SQLite names it (`BEGIN`, `RELEASE`,
  /// `ROLLBACK`); they stay inside an enclosing transaction.
  case savepoint(verb: String)
  /// `ATTACH` (and the `VACUUM INTO` target, which SQLite attaches when it runs).
  case attach
  /// `DETACH`.
  case detach
  /// `PRAGMA name`, lowercased; `setsValue` when it has an argument (`= value` or `(value)`).
  case pragma(name: String, setsValue: Bool)
  /// Anything else: it reads or writes tables, creates or drops objects, calls functions.
  case other

  /// The kind one authorizer action shows.
  init(action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) {
    switch action {
    case SQLITE_TRANSACTION:
      self = .transaction(verb: first.map { String(cString: $0) } ?? "")
    case SQLITE_SAVEPOINT:
      self = .savepoint(verb: first.map { String(cString: $0) } ?? "")
    case SQLITE_ATTACH:
      self = .attach
    case SQLITE_DETACH:
      self = .detach
    case SQLITE_PRAGMA:
      self = .pragma(
        name: asciiLowercased(first.map { String(cString: $0) } ?? ""),
        setsValue: second != nil
      )
    default:
      self = .other
    }
  }

  /// Folds in one more action of the same statement: the first action that says more than
  /// `other` decides (an `ATTACH` also evaluates its file name, a function call).
  mutating func record(
    _ action: Int32,
    _ first: UnsafePointer<CChar>?,
    _ second: UnsafePointer<CChar>?
  ) {
    guard self == .unreported || self == .other else { return }
    self = PreparedStatementKind(action: action, first, second)
  }
}

extension Connection {
  /// What the authorizer saw of the statement `executeScript` prepared last (the one its
  /// `willRun` is called for, or the one that failed to compile); `unreported` when the
  /// connection has no authorizer (no fence was ever raised on it).
  package var lastPreparedKind: PreparedStatementKind {
    authorizer?.lastPrepared ?? .unreported
  }
}
