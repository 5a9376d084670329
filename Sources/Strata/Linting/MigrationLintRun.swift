/// Lints one pending migration's up part while the linter's replay runs it: `willRun` sees each
/// statement as SQLite's authorizer classified it (before it runs), and the schema the
/// statement before it left; `finish` judges what needs the whole migration.
final class MigrationLintRun {
  private let connection: Connection
  private let file: String
  private let firstLine: Int
  /// The part runs inside strata's transaction, which turns foreign keys off and checks them
  /// before commit (not `transaction:false`, not a part that manages its own transaction).
  private let inStrataTransaction: Bool
  private let directives: [LintDirective]
  private(set) var findings: [LintFinding] = []

  /// The schema before the migration, and now (after the last statement that changed it).
  private let start: SchemaShape
  private var shape: SchemaShape
  /// The last statement that changed the schema, with the schema before it; judged once the
  /// next statement (or the end) shows what it did.
  private var changing: (line: Int, actions: [AuthorizedAction], before: SchemaShape)?
  /// The rules disabled for the statement on each line.
  private var allowed: [Int: Set<String>] = [:]
  private var previousLine: Int
  /// A table was created, dropped or altered.
  private var changesTables = false
  private var foreignKeysOn = false
  /// Tables created by this migration (so rows written into them are not data changes), with
  /// the line that created them.
  private var created: [String: Int] = [:]
  private var drops: [(table: String, line: Int)] = []
  private var dataChanges: [(table: String, verb: String, line: Int)] = []
  /// Referenced tables renamed away in a part where foreign keys are handled: a table created
  /// under the old name later makes it a rebuild whose children follow the old copy.
  private var renamedAway: [String: (name: String, line: Int, children: [String])] = [:]
  /// The statement that added each foreign key new in this migration.
  private var foreignKeyLines: [ForeignKeyShape: Int] = [:]
  /// The foreign keys the schema had before the migration, also as a rename in it rewrote
  /// them (`ALTER TABLE … RENAME TO` of their table or parent, `RENAME COLUMN` of their
  /// columns): not added by the migration.
  private var existingForeignKeys: Set<ForeignKeyShape>

  init(_ migration: Migration, format: MigrationFormat, connection: Connection) throws {
    self.connection = connection
    let up = migration.up
    file = up.file
    firstLine = up.firstLine
    previousLine = up.firstLine - 1
    let ownTransaction =
      (try? OwnTransaction.find(in: MigrationPart(applying: migration), format: format)) != nil
    inStrataTransaction = up.isTransactional && !ownTransaction
    directives = LintDirective.all(in: up.sql, firstLine: up.firstLine)
    start = try SchemaShape.read(connection)
    shape = start
    existingForeignKeys = start.foreignKeys
    let known = Set(LintRule.allowable.map(\.rawValue))
    for directive in directives {
      if directive.names.isEmpty {
        report(.unknownRule, directive.line, "'-- \(LintDirective.keyword)' names no rule")
      }
      for name in directive.names where !known.contains(name) {
        report(
          .unknownRule,
          directive.line,
          "'-- \(LintDirective.keyword)' names no rule "
            + "called '\(name)', so it disables nothing"
        )
      }
    }
  }

  /// Foreign keys are turned off and checked before commit around this statement (inside
  /// strata's transaction, a `PRAGMA foreign_keys` of the part is a no-op).
  private var foreignKeysHandled: Bool { inStrataTransaction }

  /// Called before `statement` runs, with what the authorizer saw as it was prepared.
  func willRun(
    _ statement: ScriptStatement,
    kind: PreparedStatementKind,
    actions: [AuthorizedAction]
  ) throws {
    try judgeChange()
    let line = statement.line
    allowed[line] = Set(
      directives.filter { $0.line > previousLine && $0.line < line }.flatMap(\.names)
    )
    previousLine = line
    if inStrataTransaction, let what = TransactionBoundStatement.named(kind, sql: statement.sql) {
      let effect =
        TransactionBoundStatement.transactionControl.contains(what)
        ? "would end or nest the transaction strata runs this part in"
        : "cannot run inside the transaction strata runs this part in"
      report(.needsNoTransaction, line, "\(what) \(effect)")
    }
    for action in actions where action.kind == .pragma && !inStrataTransaction {
      guard asciiLowercased(action.name) == "foreign_keys", let value = action.value else {
        continue
      }
      foreignKeysOn = ["on", "1", "true", "yes"].contains(asciiLowercased(value))
    }
    let written = actions.filter(\.changesRows)
    if let first = written.first(where: { $0.kind != .delete }),
      let phrase = ReplaceClause.phrase(in: statement.sql)
    {
      report(
        .insertOrReplace,
        line,
        "\(phrase) on \(displayIdentifier(first.name)) deletes a conflicting row before it "
          + "writes the new one, which fires ON DELETE CASCADE and delete triggers"
      )
    }
    let schemaActions = actions.filter(\.changesSchema)
    guard !schemaActions.isEmpty else {
      for action in written where created[asciiLowercased(action.name)] == nil {
        dataChanges.append((action.name, Self.verb(action.kind), line))
      }
      return
    }
    // Tables' structure, for data-with-schema-change: an index, trigger or view beside a data
    // change holds no row the change depends on.
    let tableKinds: Set<AuthorizedAction.Kind> = [
      .createTable, .dropTable, .alterTable, .createVirtualTable, .dropVirtualTable,
    ]
    if schemaActions.contains(where: { tableKinds.contains($0.kind) }) { changesTables = true }
    for action in schemaActions {
      let key = asciiLowercased(action.name)
      switch action.kind {
      case .createTable:
        created[key] = line
        if let renamed = renamedAway.removeValue(forKey: key) {
          reportRename(renamed.name, renamed.children, renamed.line, rebuilt: true)
        }
      case .dropTable:
        if created[key] == nil, start.table(key) != nil { drops.append((action.name, line)) }
        let children = shape.children(of: key)
        if !children.isEmpty, !foreignKeysHandled {
          report(
            .rebuildReferencedTable,
            line,
            "drops table \(displayIdentifier(action.name)), which the foreign keys of "
              + "\(list(children)) reference, \(unhandled)"
          )
        }
      default:
        break
      }
    }
    changing = (line, schemaActions, shape)
  }

  /// Called once the part has run (or stopped): judges the last change, and what needs the
  /// whole migration.
  func finish() throws {
    try judgeChange()
    for drop in drops where shape.table(drop.table) == nil {
      report(.dropTable, drop.line, "drops table \(displayIdentifier(drop.table)) and its rows")
    }
    for (key, line) in created.sorted(by: { $0.value < $1.value }) {
      guard let before = start.table(key), let after = shape.table(key) else { continue }
      compareColumns(before, after, line: line, rebuilt: true)
    }
    if changesTables {
      for change in dataChanges {
        report(
          .dataWithSchemaChange,
          change.line,
          "\(change.verb) \(displayIdentifier(change.table)) in a migration that also changes "
            + "the schema"
        )
      }
    }
    for key in shape.foreignKeys.subtracting(existingForeignKeys)
      .sorted(by: { lineOf($0) < lineOf($1) })
    where try !connection.isIndexed(key) {
      let table = shape.table(key.table)?.name ?? key.table
      report(
        .unindexedForeignKey,
        lineOf(key),
        "the foreign key \(displayIdentifier(table))(\(key.columns.joined(separator: ", "))) "
          + "referencing \(displayIdentifier(key.parent)) has no index that starts with its "
          + "columns"
      )
    }
    let order = Dictionary(uniqueKeysWithValues: LintRule.allCases.enumerated().map { ($1, $0) })
    findings.sort { ($0.line, order[$0.rule] ?? 0) < ($1.line, order[$1.rule] ?? 0) }
  }

  private func lineOf(_ key: ForeignKeyShape) -> Int { foreignKeyLines[key] ?? firstLine }

  /// What the last schema-changing statement did, now that it has run.
  private func judgeChange() throws {
    guard let change = changing else { return }
    changing = nil
    let after = try SchemaShape.read(connection)
    let before = change.before
    let appeared = after.foreignKeys.subtracting(before.foreignKeys)
    for key in appeared { foreignKeyLines[key] = change.line }
    if !appeared.isEmpty, let renames = ForeignKeyRenames(change.actions, before, after) {
      for key in before.foreignKeys.subtracting(after.foreignKeys)
      where existingForeignKeys.contains(key) {
        let rewritten = renames.rewrite(key)
        if appeared.contains(rewritten) { existingForeignKeys.insert(rewritten) }
      }
    }
    for action in change.actions where action.kind == .alterTable {
      let key = asciiLowercased(action.name)
      guard let old = before.table(key) else { continue }
      if let new = after.table(key) {
        compareColumns(old, new, line: change.line, rebuilt: false)
        continue
      }
      // Renamed: the one table that appeared.
      guard let newKey = after.tables.keys.first(where: { before.tables[$0] == nil }) else {
        continue
      }
      if let line = created.removeValue(forKey: key) { created[newKey] = line }
      let children = before.children(of: key)
      guard !children.isEmpty else { continue }
      if foreignKeysHandled {
        renamedAway[key] = (old.name, change.line, children)
      } else {
        reportRename(old.name, children, change.line, rebuilt: false)
      }
    }
    shape = after
  }

  private func reportRename(_ table: String, _ children: [String], _ line: Int, rebuilt: Bool) {
    let why =
      rebuilt
      ? "and a new table of its old name is created after it: SQLite rewrote their foreign keys "
        + "to follow the renamed copy, not the new table"
      : "(SQLite rewrites their foreign keys to follow it), \(unhandled)"
    report(
      .rebuildReferencedTable,
      line,
      "renames table \(displayIdentifier(table)), which the foreign keys of \(list(children)) "
        + "reference, \(why)"
    )
  }

  private var unhandled: String {
    foreignKeysOn
      ? "after the part turned foreign keys on (a drop cascades to their rows)"
      : "in a part that runs outside strata's transaction (no foreign key check before commit)"
  }

  /// Columns a table lost, and NOT NULL columns without a default it gained; `rebuilt` when a
  /// table of the same name was created in the migration, else it was altered (an `ALTER TABLE`
  /// that keeps the number of columns renamed one).
  private func compareColumns(_ old: TableShape, _ new: TableShape, line: Int, rebuilt: Bool) {
    if !rebuilt, old.columns.count == new.columns.count { return }
    let oldNames = Set(old.columns.map { asciiLowercased($0.name) })
    let newNames = Set(new.columns.map { asciiLowercased($0.name) })
    let table = displayIdentifier(new.name)
    for column in old.columns where !newNames.contains(asciiLowercased(column.name)) {
      let name = displayIdentifier(column.name)
      report(
        .dropColumn,
        line,
        rebuilt
          ? "rebuilds table \(table) without column \(name), dropping its values"
          : "drops column \(name) of table \(table) and its values"
      )
    }
    for column in new.columns where !oldNames.contains(asciiLowercased(column.name)) {
      guard column.notNull, !column.hasNonNullDefault else { continue }
      let name = displayIdentifier(column.name)
      report(
        .notNullWithoutDefault,
        line,
        rebuilt
          ? "rebuilds table \(table) with a new NOT NULL column \(name) without a non-NULL "
            + "default"
          : "adds NOT NULL column \(name) to table \(table) without a non-NULL default"
      )
    }
  }

  private func report(_ rule: LintRule, _ line: Int, _ message: String) {
    if rule != .unknownRule, allowed[line]?.contains(rule.rawValue) == true { return }
    let finding = LintFinding(file: file, line: line, rule: rule, message: message)
    if !findings.contains(finding) { findings.append(finding) }
  }

  private func list(_ names: [String]) -> String {
    names.map(displayIdentifier).joined(separator: ", ")
  }

  private static func verb(_ kind: AuthorizedAction.Kind) -> String {
    switch kind {
    case .insert: "inserts into"
    case .update: "updates"
    default: "deletes from"
    }
  }
}
