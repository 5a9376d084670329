import Foundation

/// When a row that left the file is the user's after all, though its file columns still hold
/// what the file wrote: deleting it would lose what the user put elsewhere.
///
/// - Another row references it by a foreign key: the delete would cascade into the user's rows,
///   change them (SET NULL, SET DEFAULT), or fail every launch (no action).
/// - A column the file does not have, and did not have when it wrote the row, no longer holds
///   its DEFAULT (the user marked it a favourite). Only a constant DEFAULT can be compared; a
///   column whose DEFAULT is an expression (`CURRENT_TIMESTAMP`), a generated column and a
///   rowid alias are not evidence.
extension SeedSync {
  /// SQL, over the table's row as `T`, true when neither holds; "1" when nothing applies.
  ///
  /// - Parameter recorded: the columns the ledger's values are of (the file's last version),
  ///   which the ledger's comparison already covers.
  func leftToTheFileCondition(recorded: [String]) throws -> String {
    try Self.leftToTheFileCondition(connection, table: table, columns: columns, recorded: recorded)
  }

  /// The condition for any table and file columns (a keyless table's too).
  static func leftToTheFileCondition(
    _ connection: any SQLDatabase,
    table: Seeder.Table,
    columns: [String],
    recorded: [String]
  ) throws -> String {
    var conditions = untouchedColumnConditions(table: table, besides: columns + recorded)
    conditions += try referenceConditions(connection, table: table)
    return conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
  }

  private static func untouchedColumnConditions(
    table: Seeder.Table,
    besides names: [String]
  ) -> [String] {
    let fileColumns = Set(names.map(Seeder.folded))
    return table.columns.compactMap { column in
      guard !fileColumns.contains(Seeder.folded(column.name)), !column.isGenerated,
        !column.isRowidAlias
      else { return nil }
      let name = "T.\(quoteIdentifier(column.name))"
      guard let value = column.defaultValue else { return "\(name) IS NULL" }
      return Self.isConstant(value) ? "\(name) IS (\(value))" : nil
    }
  }

  private static func referenceConditions(
    _ connection: any SQLDatabase,
    table: Seeder.Table
  ) throws -> [String] {
    let pragmas = try SchemaPragmas(connection)
    let parent = Seeder.folded(table.name)
    let primaryKey = table.columns.filter { $0.primaryKeyPosition > 0 }
      .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    var conditions: [String] = []
    // The tables that reference this one, and the table itself (a parent row of its own).
    let children = try Seeder.referencingTables(of: table.name, connection) + [table.name]
    for child in children {
      for foreignKey in try pragmas.foreignKeys(of: child)
      where Seeder.folded(foreignKey.parent) == parent {
        let to = foreignKey.to.enumerated().map { index, name in
          name ?? (index < primaryKey.count ? primaryKey[index] : nil)
        }
        // A key SQLite cannot resolve ("foreign key mismatch") refuses the delete itself.
        guard to.count == foreignKey.from.count, to.allSatisfy({ $0 != nil }) else { continue }
        let match = zip(foreignKey.from, to.compactMap { $0 }).map { from, to in
          // The parent's column on the left: the comparison uses its collation, as SQLite's
          // own foreign key lookup does.
          "T.\(quoteIdentifier(to)) = c.\(quoteIdentifier(from))"
        }.joined(separator: " AND ")
        conditions.append(
          "NOT EXISTS (SELECT 1 FROM main.\(quoteIdentifier(child)) AS c WHERE \(match))"
        )
      }
    }
    return conditions
  }

  /// A DEFAULT that is the same value whenever it is taken: a number, a string or blob literal,
  /// NULL, TRUE or FALSE, in parentheses or not.
  static func isConstant(_ expression: String) -> Bool {
    var text = expression.trimmingCharacters(in: .whitespaces)
    while text.hasPrefix("("), text.hasSuffix(")") {
      text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
    }
    let lower = asciiLowercased(text)
    if ["null", "true", "false"].contains(lower) { return true }
    if lower.hasPrefix("'") || lower.hasPrefix("x'") {
      let body = text.dropFirst(lower.hasPrefix("'") ? 1 : 2)
      guard body.hasSuffix("'") else { return false }
      // Inside, a quote comes only doubled.
      return !body.dropLast().replacingOccurrences(of: "''", with: "").contains("'")
    }
    var number = Substring(lower)
    if number.first == "-" || number.first == "+" { number = number.dropFirst() }
    if number.hasPrefix("0x") {
      return number.count > 2 && number.dropFirst(2).allSatisfy(\.isHexDigit)
    }
    return !number.isEmpty && Double(number) != nil
      && number.allSatisfy { $0.isASCII && ($0.isNumber || ".e+-".contains($0)) }
  }
}
