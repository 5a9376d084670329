#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// What a fence that protects tables (`FenceRules.protecting`) checks after a statement has
/// run, because the authorizer cannot see it while the statement is prepared: the new name of
/// `ALTER TABLE … RENAME TO` (SQLite reports only the old one), and the body of a new trigger
/// (compiled only when a statement that fires it is prepared, possibly by the app, unfenced,
/// much later). Such a statement runs inside a savepoint, so a refused one leaves nothing
/// behind, even in a migration part that runs without a transaction.
struct FenceAudit: OptionSet {
  let rawValue: UInt8
  /// An object may now carry the name of one of the protected tables.
  static let renamedObjects = FenceAudit(rawValue: 1)
  /// A trigger was created: its body must not write the protected tables.
  static let newTriggers = FenceAudit(rawValue: 2)
}

/// What the audit saw before the statement ran.
struct FenceAuditSnapshot {
  fileprivate let audit: FenceAudit
  fileprivate let trigger: (name: String, table: String)?
  /// The tables the fence protected when the statement was prepared.
  fileprivate let tables: ProtectedTables
  fileprivate let protectedNamed: [[SQLValue]]
}

extension Connection {
  /// Forgets what the authorizer asked to audit, and what it saw of the previous statement;
  /// called before each statement is prepared.
  func clearFenceAudit() {
    authorizer?.audit = []
    authorizer?.newTrigger = nil
    authorizer?.lastPrepared = .unreported
    if authorizer?.actions != nil { authorizer?.actions = [] }
  }

  /// Called between preparing and running a statement: nil when it needs no audit, else what
  /// the audit compares with, and a savepoint the statement runs in.
  func beginFenceAudit() throws -> FenceAuditSnapshot? {
    guard let authorizer, !authorizer.audit.isEmpty, let tables = authorizer.rules.protected
    else { return nil }
    let audit = authorizer.audit
    let trigger = authorizer.newTrigger
    clearFenceAudit()
    let snapshot = FenceAuditSnapshot(
      audit: audit,
      trigger: trigger,
      tables: tables,
      protectedNamed: try protectedNamedObjects(tables)
    )
    try execute("SAVEPOINT strata_fence_audit")
    return snapshot
  }

  /// Called after the statement ran: releases the savepoint, or rolls the statement back and
  /// returns why it is refused.
  func finishFenceAudit(_ snapshot: FenceAuditSnapshot) throws -> String? {
    let reason = try auditReason(snapshot)
    if reason != nil { try execute("ROLLBACK TO strata_fence_audit") }
    try execute("RELEASE strata_fence_audit")
    return reason
  }

  /// Gives the savepoint up after the statement itself failed.
  func abandonFenceAudit() {
    _ = try? execute("ROLLBACK TO strata_fence_audit")
    _ = try? execute("RELEASE strata_fence_audit")
  }

  private func auditReason(_ snapshot: FenceAuditSnapshot) throws -> String? {
    let tables = snapshot.tables
    let after = try protectedNamedObjects(tables)
    if after != snapshot.protectedNamed {
      let names = Set(after.map(\.first)).subtracting(snapshot.protectedNamed.map(\.first))
      let name =
        names.compactMap { $0.flatMap(\.textValue) }.first
        ?? after.first?.first.flatMap(\.textValue) ?? tables.names[0]
      return "the statement gives an object the name \(displayIdentifier(name)), "
        + tables.rule
    }
    guard let trigger = snapshot.trigger else { return nil }
    return try triggerWritesProtectedTables(trigger.table, tables)
  }

  /// Every schema object named like one of the protected tables (name, type, table, SQL).
  private func protectedNamedObjects(_ tables: ProtectedTables) throws -> [[SQLValue]] {
    try rows(tables.namedObjectsSQL)
  }

  /// Compiles (never runs) a statement of each kind that fires triggers on `table`, under the
  /// fence: SQLite compiles the triggers' bodies into it, so the fence sees what they write.
  /// Protected tables that do not exist yet are created for the probe (and rolled back), so a
  /// body that writes one created later is seen too.
  private func triggerWritesProtectedTables(
    _ table: String,
    _ tables: ProtectedTables
  ) throws -> String? {
    try execute("SAVEPOINT strata_fence_probe")
    defer {
      _ = try? execute("ROLLBACK TO strata_fence_probe")
      _ = try? execute("RELEASE strata_fence_probe")
    }
    if let authorizer {
      let rules = authorizer.rules
      authorizer.rules = .none
      defer { authorizer.rules = rules }
      for create in tables.createSQL { try execute(create) }
    }
    let quoted = quoteIdentifier(table)
    let columns = try rows("SELECT name FROM pragma_table_info(\(quoteLiteral(table)))")
      .compactMap { $0.first.flatMap(\.textValue) }
    var probes = ["INSERT INTO \(quoted) DEFAULT VALUES", "DELETE FROM \(quoted)"]
    if !columns.isEmpty {
      let sets = columns.map { "\(quoteIdentifier($0)) = \(quoteIdentifier($0))" }
      probes.append("UPDATE \(quoted) SET \(sets.joined(separator: ", "))")
    }
    for probe in probes {
      authorizer?.denial = nil
      var statement: OpaquePointer?
      let rc = sqlite3_prepare_v2(handle, probe, -1, &statement, nil)
      sqlite3_finalize(statement)
      clearFenceAudit()
      if rc != SQLITE_OK, let denial = authorizer?.denial {
        authorizer?.denial = nil
        let said = "the statement "
        return "the trigger it creates, when it fires, "
          + (denial.hasPrefix(said) ? String(denial.dropFirst(said.count)) : denial)
      }
    }
    return nil
  }
}
