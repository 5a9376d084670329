/// The views and triggers a migration drops before it changes tables and creates after: those
/// the desired schema drops or changes, and those that name a table the migration changes
/// (SQLite checks every view and trigger when `ALTER TABLE` renames, drops or adds, and a
/// rebuild drops the table they name, so they would stop it). Those created are the desired
/// schema's own text.
struct ViewAndTriggerChanges {
  private(set) var viewDrops: [PlannedStatement] = []
  private(set) var triggerDrops: [PlannedStatement] = []
  private(set) var viewCreates: [PlannedStatement] = []
  private(set) var triggerCreates: [PlannedStatement] = []
  private(set) var summary: [String] = []

  /// - Parameter affected: lower-cased names of the tables the migration renames, rebuilds,
  ///   alters or drops (old and new names).
  init(current: Schema, desired: Schema, affected: Set<String>) {
    let wantedViews = SchemaComparison.keyed(desired.views, \.name)
    var dropped: Set<String> = []
    var changed = true
    // A view over a dropped view goes too: repeat until nothing more is dropped.
    while changed {
      changed = false
      for view in current.views where !dropped.contains(asciiLowercased(view.name)) {
        let wanted = wantedViews[asciiLowercased(view.name)]
        guard
          wanted.map({ normalizedSQL($0.sql) != normalizedSQL(view.sql) }) ?? true
            || mentions(view.sql, anyOf: affected.union(dropped))
        else { continue }
        dropped.insert(asciiLowercased(view.name))
        viewDrops.append(PlannedStatement(sql: "DROP VIEW \(quoteIdentifier(view.name))"))
        changed = true
      }
    }
    let currentViews = SchemaComparison.keyed(current.views, \.name)
    for view in desired.views
    where currentViews[asciiLowercased(view.name)] == nil
      || dropped.contains(asciiLowercased(view.name))
    {
      viewCreates.append(PlannedStatement(sql: view.sql))
    }
    summary += Self.describe("view", drops: viewDrops, creates: viewCreates)

    let gone = affected.union(dropped)
    let userTriggers = { (schema: Schema) in schema.triggers.filter { !isStrataTable($0.table) } }
    let wantedTriggers = SchemaComparison.keyed(userTriggers(desired), \.name)
    var droppedTriggers: Set<String> = []
    for trigger in userTriggers(current) {
      let wanted = wantedTriggers[asciiLowercased(trigger.name)]
      guard
        wanted.map({ normalizedSQL($0.sql) != normalizedSQL(trigger.sql) }) ?? true
          || gone.contains(asciiLowercased(trigger.table)) || mentions(trigger.sql, anyOf: gone)
      else { continue }
      droppedTriggers.insert(asciiLowercased(trigger.name))
      triggerDrops.append(PlannedStatement(sql: "DROP TRIGGER \(quoteIdentifier(trigger.name))"))
    }
    let currentTriggers = SchemaComparison.keyed(userTriggers(current), \.name)
    for trigger in userTriggers(desired)
    where currentTriggers[asciiLowercased(trigger.name)] == nil
      || droppedTriggers.contains(asciiLowercased(trigger.name))
    {
      triggerCreates.append(PlannedStatement(sql: trigger.sql))
    }
    summary += Self.describe("trigger", drops: triggerDrops, creates: triggerCreates)
  }

  /// "create view v", "drop trigger t", "recreate index i" (dropped and created again): the
  /// changes of one `kind` of object, for people.
  static func describe(
    _ kind: String,
    drops: [PlannedStatement],
    creates: [PlannedStatement]
  ) -> [String] {
    func name(_ statement: PlannedStatement) -> String {
      let tokens = SQLTokenizer(statement.sql).tokens()
      guard let at = tokens.firstIndex(where: { $0.isKeyword(kind.uppercased()) }) else {
        return ""
      }
      var index = at + 1
      if index + 2 < tokens.count, tokens[index].isKeyword("IF") { index += 3 }
      return index < tokens.count ? displayIdentifier(tokens[index].identifier) : ""
    }
    let dropped = drops.map(name)
    let created = creates.map(name)
    let droppedKeys = Set(dropped.map(asciiLowercased))
    let createdKeys = Set(created.map(asciiLowercased))
    return dropped.filter { !createdKeys.contains(asciiLowercased($0)) }.map {
      "drop \(kind) \($0)"
    }
      + created.map {
        droppedKeys.contains(asciiLowercased($0))
          ? "recreate \(kind) \($0)" : "create \(kind) \($0)"
      }
  }
}
