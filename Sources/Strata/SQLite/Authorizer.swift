import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// What SQLite's authorizer refuses on a connection while a fence is up. Checked when a
/// statement is prepared (and for `VACUUM INTO`, when it attaches its target), so a refused
/// statement never runs, and a statement that passes costs nothing more when it runs.
package struct FenceRules: Sendable {
  /// The rules that need no value.
  private var kinds: Kinds
  /// The tables user SQL may read but not change, when the rules protect any.
  private(set) var protected: ProtectedTables?

  private struct Kinds: OptionSet, Sendable {
    let rawValue: UInt8
    static let noOutsideFiles = Kinds(rawValue: 1)
    static let queueAccess = Kinds(rawValue: 2)
  }

  private init(kinds: Kinds, protected: ProtectedTables? = nil) {
    self.kinds = kinds
    self.protected = protected
  }

  /// No rule: what a connection has before its first fence.
  static let none = FenceRules(kinds: [])

  /// `tables` (exactly those names): user SQL may read them but not write, drop, alter, rename,
  /// index or put a trigger on them, nor create an object that takes one of their names, nor
  /// set `PRAGMA writable_schema`, which would let it rewrite any table's definition.
  package static func protecting(_ tables: ProtectedTables) -> FenceRules {
    FenceRules(kinds: [], protected: tables)
  }
  /// Nothing outside the connection's database: no file attached (`ATTACH 'x.db'`, and so no
  /// `VACUUM INTO 'x.db'`), no `load_extension()`. In-memory databases may still be attached.
  package static let noOutsideFiles = FenceRules(kinds: .noOutsideFiles)
  /// What a `DatabaseQueue` closure's SQL must leave to the queue: no `BEGIN`, `COMMIT`,
  /// `END` or `ROLLBACK` (savepoints nest and are allowed), and no setting of `query_only`,
  /// `foreign_keys` or `writable_schema`, which would undo the read's or the write's rules.
  package static let queueAccess = FenceRules(kinds: .queueAccess)

  /// True when the rules refuse nothing.
  var isEmpty: Bool { kinds.isEmpty && protected == nil }
  var refusesOutsideFiles: Bool { kinds.contains(.noOutsideFiles) }
  var keepsQueueAccess: Bool { kinds.contains(.queueAccess) }

  /// Adds `other`'s rules (and tables) to these.
  mutating func formUnion(_ other: FenceRules) {
    kinds.formUnion(other.kinds)
    if let tables = other.protected {
      protected = protected?.merged(with: tables) ?? tables
    }
  }
}

/// The rules in force on one connection and the most recent refusal, for its message.
final class Authorizer {
  var rules = FenceRules.none
  /// Why the last statement was refused; taken by the error that reports it.
  var denial: String?
  /// What to check once the statement being prepared has run (FenceAudit.swift).
  var audit: FenceAudit = []
  /// The trigger (name, table) the statement being prepared creates.
  var newTrigger: (name: String, table: String)?
  /// What the statement being prepared (or prepared last) does (PreparedStatementKind.swift).
  var lastPrepared: PreparedStatementKind = .unreported
  /// Every action of the statement being prepared, when a caller asked for them
  /// (AuthorizedAction.swift); nil otherwise, so a fence alone records nothing.
  var actions: [AuthorizedAction]?
  /// The tables of the statements being compiled, while a live query or a transaction it
  /// watches asks for them (TableRecording.swift); nil otherwise.
  var tables: RecordedTables?
}

/// The rules in force before `raiseFence`, to give back to `restoreFence`.
package struct FenceState: Sendable {
  fileprivate let rules: FenceRules
}

extension Connection {
  /// Adds `rules` to the connection's fence until `restoreFence` is called with the result;
  /// fences nest.
  package func raiseFence(_ rules: FenceRules) -> FenceState {
    let authorizer = installedAuthorizer()
    let before = FenceState(rules: authorizer.rules)
    authorizer.rules.formUnion(rules)
    authorizer.denial = nil
    return before
  }

  /// Puts back the rules in force before the matching `raiseFence`.
  package func restoreFence(_ state: FenceState) {
    authorizer?.rules = state.rules
  }

  /// Runs `body` with `rules` added to the connection's fence.
  package func withFence<T>(_ rules: FenceRules, _ body: () throws -> T) rethrows -> T {
    let state = raiseFence(rules)
    defer { restoreFence(state) }
    return try body()
  }

  /// The connection's authorizer, installed on first use; it lives as long as the connection.
  func installedAuthorizer() -> Authorizer {
    if let authorizer { return authorizer }
    let created = Authorizer()
    authorizer = created
    sqlite3_set_authorizer(handle, authorize, Unmanaged.passUnretained(created).toOpaque())
    return created
  }

  /// The error for a failed statement. SQLite's message for a statement the fence refused is
  /// "not authorized" (with SQLITE_ERROR for a function): say what was refused, as SQLITE_AUTH.
  func fencedError(code: Int32, message: String, sql: String?) -> SQLiteError {
    guard let denial = authorizer?.denial,
      code & 0xFF == SQLITE_AUTH || message.hasPrefix("not authorized")
    else {
      // SQLITE_AUTH that no authorizer gave is the system's refusal: Apple's SQLite reports a
      // file the system will not open (Data Protection, the sandbox) so, as EPERM.
      let refusedBySystem = code & 0xFF == SQLITE_AUTH && !message.hasPrefix("not authorized")
      return SQLiteError(
        extendedCode: code,
        message: message,
        sql: sql,
        systemErrorCode: refusedBySystem ? EPERM : systemErrorCode(for: code)
      )
    }
    authorizer?.denial = nil
    return SQLiteError(extendedCode: SQLITE_AUTH, message: denial, sql: sql)
  }
}

extension SQLiteError {
  /// A fence refused the statement (SQLITE_AUTH): it did not run.
  package var isRefusedByFence: Bool { code == SQLITE_AUTH }
}

/// The authorizer callback: called by SQLite while it compiles a statement, once per action.
private func authorize(
  _ context: UnsafeMutableRawPointer?,
  _ action: Int32,
  _ first: UnsafePointer<CChar>?,
  _ second: UnsafePointer<CChar>?,
  _ database: UnsafePointer<CChar>?,
  _ trigger: UnsafePointer<CChar>?
) -> Int32 {
  guard let context else { return SQLITE_OK }
  let authorizer = Unmanaged<Authorizer>.fromOpaque(context).takeUnretainedValue()
  authorizer.lastPrepared.record(action, first, second)
  authorizer.tables?.record(action, first, second)
  if authorizer.actions != nil {
    authorizer.actions?.append(
      AuthorizedAction(action, first, second, database: database, trigger: trigger)
    )
  }
  let rules = authorizer.rules
  if rules.isEmpty { return SQLITE_OK }
  let asked = AuthorizerAction(
    code: action,
    first: first,
    second: second,
    database: database,
    trigger: trigger
  )
  if let reason = refusal(rules, asked) {
    authorizer.denial = reason
    return SQLITE_DENY
  }
  if rules.protected != nil {
    // What the authorizer cannot see (the new name of ALTER TABLE … RENAME TO, the body of
    // a new trigger) is checked once the statement has run (FenceAudit.swift).
    if action == SQLITE_ALTER_TABLE {
      authorizer.audit.insert(.renamedObjects)
    } else if action == SQLITE_CREATE_TRIGGER || action == SQLITE_CREATE_TEMP_TRIGGER,
      let first, let second
    {
      authorizer.audit.insert(.newTriggers)
      authorizer.newTrigger = (String(cString: first), String(cString: second))
    }
  }
  return SQLITE_OK
}

/// One question SQLite's authorizer callback is asked: the action and its four arguments
/// (which of them are set depends on the action).
private struct AuthorizerAction {
  let code: Int32
  let first: UnsafePointer<CChar>?
  let second: UnsafePointer<CChar>?
  /// The schema ("main", "temp", an attached name).
  let database: UnsafePointer<CChar>?
  /// The trigger or view the action comes from, when it does.
  let trigger: UnsafePointer<CChar>?
}

/// Why one of `rules` refuses the action, or nil.
private func refusal(_ rules: FenceRules, _ action: AuthorizerAction) -> String? {
  if rules.refusesOutsideFiles, let reason = outsideFile(action) { return reason }
  if rules.keepsQueueAccess, let reason = queueOwned(action) { return reason }
  guard let tables = rules.protected else { return nil }
  return protectedTableChange(action, tables) ?? schemaWriting(action, tables)
}

/// Why the action reaches outside the database, or nil.
private func outsideFile(_ action: AuthorizerAction) -> String? {
  let (first, second) = (action.first, action.second)
  switch action.code {
  case SQLITE_ATTACH:
    // Plain VACUUM attaches "" (a temporary database); ":memory:" holds no file. A name SQLite
    // reports as NULL is computed when the statement runs (`'a' || 'b.db'`, a function, a
    // subquery, a parameter): it may name any file, so it is refused too.
    guard let first else {
      return "attaches a database whose file name is computed when the statement runs (an "
        + "expression, not a literal string), which could create or change a file outside the "
        + "database"
    }
    let file = String(cString: first)
    if file.isEmpty || file == ":memory:" { return nil }
    return "attaches the file \(quoteLiteral(file)) (ATTACH or VACUUM INTO), which would "
      + "create or change a file outside the database"
  case SQLITE_FUNCTION:
    guard let second, strcasecmp(second, "load_extension") == 0 else { return nil }
    return "calls load_extension(), which loads code from a file"
  default:
    return nil
  }
}

/// Why the action takes over what a `DatabaseQueue` owns (its transaction, its connection's
/// rules), or nil.
private func queueOwned(_ action: AuthorizerAction) -> String? {
  switch action.code {
  case SQLITE_TRANSACTION:
    return "the statement begins or ends a transaction, which the queue's write owns (use a "
      + "SAVEPOINT to nest one)"
  case SQLITE_PRAGMA:
    guard action.second != nil, let first = action.first,
      strcasecmp(first, "query_only") == 0 || strcasecmp(first, "foreign_keys") == 0
        || strcasecmp(first, "writable_schema") == 0
    else { return nil }
    return "the statement sets PRAGMA \(String(cString: first)), which the queue keeps as its "
      + "read or write needs it"
  default:
    return nil
  }
}

/// Why the action lets SQL write the schema table itself (`PRAGMA writable_schema = ON`, which
/// turns `sqlite_master` into a table any UPDATE can rewrite, the protected tables included),
/// or nil. Reading the setting is allowed.
private func schemaWriting(_ action: AuthorizerAction, _ tables: ProtectedTables) -> String? {
  guard action.code == SQLITE_PRAGMA, action.second != nil, let first = action.first,
    strcasecmp(first, "writable_schema") == 0
  else { return nil }
  return "the statement sets PRAGMA writable_schema, which lets SQL rewrite the definition of "
    + "any table, including \(tables.names[0]), \(tables.rule)"
}

/// Why the action changes one of the protected tables, or nil.
private func protectedTableChange(
  _ action: AuthorizerAction,
  _ tables: ProtectedTables
) -> String? {
  let (first, second) = (action.first, action.second)
  let verb: String
  let table: UnsafePointer<CChar>?
  var schema = action.database
  switch action.code {
  case SQLITE_INSERT: (verb, table) = ("inserts into", first)
  case SQLITE_UPDATE: (verb, table) = ("updates", first)
  case SQLITE_DELETE: (verb, table) = ("deletes from", first)
  case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE: (verb, table) = ("drops", first)
  case SQLITE_ALTER_TABLE: (verb, table, schema) = ("alters or renames", second, first)
  case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TRIGGER,
    SQLITE_CREATE_TEMP_TRIGGER:
    // An index or trigger named like a protected table takes the name its owner needs.
    if let first, tables.contains(first) {
      (verb, table) = ("creates an object named", first)
    } else if action.code == SQLITE_CREATE_INDEX || action.code == SQLITE_CREATE_TEMP_INDEX {
      (verb, table) = ("changes an index of", second)
    } else {
      (verb, table) = ("adds a trigger to", second)
    }
  case SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX:
    (verb, table) = ("changes an index of", second)
  case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW,
    SQLITE_CREATE_VTABLE:
    // An object of that name would stand in for the table (a temporary one shadows it).
    (verb, table) = ("creates an object named", first)
  default:
    return nil
  }
  guard let table, tables.contains(table) else { return nil }
  // Only this database's tables (VACUUM copies them into its own "vacuum_db").
  if let schema, strcasecmp(schema, "main") != 0, strcasecmp(schema, "temp") != 0 { return nil }
  let name = String(cString: table)
  let through =
    action.trigger.map { " (through trigger \(displayIdentifier(String(cString: $0))))" } ?? ""
  return "the statement \(verb) \(displayIdentifier(name))\(through), \(tables.rule)"
}
