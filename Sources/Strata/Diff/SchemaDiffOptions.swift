/// What a migration generated from a desired schema may do: renames cannot be told from a drop
/// and an add, so they are said; data is lost only when allowed.
package struct SchemaDiffOptions: Hashable, Sendable {
  /// Tables and columns that were renamed rather than dropped and added.
  package var renames: [SchemaRename]
  /// Whether the migration may drop tables or columns, recreate a virtual table, make a column
  /// generated, or change a column's type in a way that changes values it holds (each marked
  /// by a comment in the file); refused by default.
  package var allowsDestructive: Bool
  /// The oldest SQLite the migration must run on (`3035000` for 3.35.0): the statements
  /// `ALTER TABLE` gained later (`DROP COLUMN` in 3.35, `RENAME COLUMN` in 3.25) are replaced by
  /// a rebuild of the table below it. nil: the SQLite strata is running on.
  package var oldestSQLite: Int32?

  /// Options that rename nothing and refuse destructive changes, unless given.
  package init(
    renames: [SchemaRename] = [],
    allowsDestructive: Bool = false,
    oldestSQLite: Int32? = nil
  ) {
    self.renames = renames
    self.allowsDestructive = allowsDestructive
    self.oldestSQLite = oldestSQLite
  }
}

/// A table or column the desired schema calls by another name: `old=new` for a table,
/// `table.old=new` for a column (the table named as it is now).
package struct SchemaRename: Hashable, Sendable, CustomStringConvertible {
  /// The table, as it is named now.
  package var table: String
  /// The column, as it is named now; nil for a rename of the table.
  package var column: String?
  /// The name in the desired schema.
  package var newName: String

  /// A rename of `table` (or of its `column`) to `newName`.
  package init(table: String, column: String? = nil, to newName: String) {
    self.table = table
    self.column = column
    self.newName = newName
  }

  /// Reads `old=new` or `table.old=new`; a name holding `.` or `=` is written in double
  /// quotes, as in SQL (`"a.b"=c`).
  ///
  /// - Throws: `DiffError.invalidRename` when `text` is not one of those.
  package init(parsing text: String) throws {
    func refuse(_ reason: String) -> DiffError {
      .invalidRename(rename: text, reason: reason)
    }
    let tokens = SQLTokenizer(text).tokens()
    guard let equals = tokens.firstIndex(where: { $0.isSymbol("=") }) else {
      throw refuse("it has no '=' (write old=new, or table.old=new for a column)")
    }
    let left = Array(tokens[..<equals])
    let right = Array(tokens[(equals + 1)...])
    func isName(_ token: SQLToken) -> Bool {
      token.kind == .word || token.kind == .quotedIdentifier
    }
    guard right.count == 1, isName(right[0]) else {
      throw refuse("the new name after '=' is not one name")
    }
    switch left.count {
    case 1 where isName(left[0]):
      self.init(table: left[0].identifier, to: right[0].identifier)
    case 3 where isName(left[0]) && left[1].isSymbol(".") && isName(left[2]):
      self.init(table: left[0].identifier, column: left[2].identifier, to: right[0].identifier)
    default:
      throw refuse("before '=' write a table, or table.column")
    }
  }

  /// `old=new` or `table.old=new`, as ``init(parsing:)`` reads it.
  package var description: String {
    let old = column.map { "\(displayIdentifier(table)).\(displayIdentifier($0))" }
    return "\(old ?? displayIdentifier(table))=\(displayIdentifier(newName))"
  }
}
