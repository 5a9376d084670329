/// The renames a migration makes, by lower-cased old names.
struct RenameMap {
  /// Old table name → new name.
  var tables: [String: String] = [:]
  /// Old table name → old column name → new column name.
  var columns: [String: [String: String]] = [:]

  /// What the table `name` is called after the renames.
  func table(_ name: String) -> String { tables[asciiLowercased(name)] ?? name }

  /// What the column `column` of the table `table` (its old name) is called after the renames.
  func column(_ table: String, _ column: String) -> String {
    columns[asciiLowercased(table)]?[asciiLowercased(column)] ?? column
  }
}

/// Checks the renames a user gave against the two schemas: each must name a table (or column)
/// that is there now and is missing from the desired schema, and a new name the desired schema
/// has and the current one does not, so a rename can never hide a drop or overwrite a table.
enum SchemaRenames {
  /// The renames as a map, table renames first (a column's table may be named by its old or
  /// its new name).
  ///
  /// - Throws: `DiffError.invalidRename` for the first rename that does not apply.
  static func validated(
    _ renames: [SchemaRename],
    _ current: [Schema.Table],
    _ desired: [Schema.Table]
  ) throws -> RenameMap {
    var map = RenameMap()
    func has(_ tables: [Schema.Table], _ name: String) -> Schema.Table? {
      tables.first { $0.name == name } ?? tables.first { sameName($0.name, name) }
    }
    for rename in renames where rename.column == nil {
      func refuse(_ reason: String) -> DiffError {
        .invalidRename(rename: rename.description, reason: reason)
      }
      let old = displayIdentifier(rename.table)
      let new = displayIdentifier(rename.newName)
      guard let table = has(current, rename.table) else {
        throw refuse("there is no table \(old) now")
      }
      guard let target = has(desired, rename.newName) else {
        throw refuse("the desired schema has no table \(new)")
      }
      guard !sameName(rename.table, rename.newName) else {
        throw refuse("the two names are the same (SQLite ignores the case of names)")
      }
      guard has(desired, rename.table) == nil else {
        throw refuse("the desired schema still has a table \(old)")
      }
      guard has(current, rename.newName) == nil else {
        throw refuse("there is a table \(new) now already")
      }
      guard map.tables[asciiLowercased(table.name)] == nil else {
        throw refuse("the table \(old) is renamed twice")
      }
      map.tables[asciiLowercased(table.name)] = target.name
    }
    for rename in renames {
      guard let columnName = rename.column else { continue }
      func refuse(_ reason: String) -> DiffError {
        .invalidRename(rename: rename.description, reason: reason)
      }
      let renamedFrom = map.tables.first { sameName($0.value, rename.table) }?.key
      guard let table = has(current, rename.table) ?? renamedFrom.flatMap({ has(current, $0) }),
        let target = has(desired, map.table(table.name))
      else {
        throw refuse(
          "neither schema has a table \(displayIdentifier(rename.table)) in both "
            + "(name the table as it is now)"
        )
      }
      let old = displayIdentifier(columnName)
      let new = displayIdentifier(rename.newName)
      guard let column = table.column(named: columnName) else {
        throw refuse("\(displayIdentifier(table.name)) has no column \(old) now")
      }
      guard let wanted = target.column(named: rename.newName) else {
        throw refuse("\(displayIdentifier(target.name)) has no column \(new) in the desired schema")
      }
      guard !sameName(columnName, rename.newName) else {
        throw refuse("the two names are the same (SQLite ignores the case of names)")
      }
      guard target.column(named: columnName) == nil else {
        throw refuse("the desired \(displayIdentifier(target.name)) still has a column \(old)")
      }
      guard table.column(named: rename.newName) == nil else {
        throw refuse("\(displayIdentifier(table.name)) has a column \(new) now already")
      }
      let key = asciiLowercased(table.name)
      guard map.columns[key]?[asciiLowercased(column.name)] == nil else {
        throw refuse("the column \(old) is renamed twice")
      }
      map.columns[key, default: [:]][asciiLowercased(column.name)] = wanted.name
    }
    return map
  }
}
