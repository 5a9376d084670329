/// A table both schemas have (under its old and its new name), and the columns they share.
struct TablePair {
  /// As it is now.
  let current: Schema.Table
  /// As the desired schema has it.
  let desired: Schema.Table
  /// Every rename of the migration.
  let renames: RenameMap
  /// The desired name of each current column the desired table has, by lower-cased old name.
  let columnNames: [String: String]

  init(current: Schema.Table, desired: Schema.Table, renames: RenameMap) {
    self.current = current
    self.desired = desired
    self.renames = renames
    var names: [String: String] = [:]
    for column in current.columns {
      let new = renames.column(current.name, column.name)
      if let match = desired.column(named: new) { names[asciiLowercased(column.name)] = match.name }
    }
    columnNames = names
  }

  var isRenamed: Bool { !sameName(current.name, desired.name) }

  /// Current columns the desired table does not have.
  var droppedColumns: [Schema.Column] {
    current.columns.filter { columnNames[asciiLowercased($0.name)] == nil }
  }
  /// Desired columns the current table does not have.
  var addedColumns: [Schema.Column] {
    let kept = Set(columnNames.values.map(asciiLowercased))
    return desired.columns.filter { !kept.contains(asciiLowercased($0.name)) }
  }
  /// Columns whose name changes (lower-cased old name → new name).
  var columnRenames: [String: String] {
    columnNames.filter { old, new in old != asciiLowercased(new) }
  }
}
