/// A row that points at a missing parent, from `PRAGMA foreign_key_check`.
public struct ForeignKeyViolation: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The table of the row without a parent.
  public let table: String
  /// The row's rowid; nil for a `WITHOUT ROWID` table.
  public let rowid: Int64?
  /// The table the row's foreign key references.
  public let parent: String

  /// "`table` row `rowid` has no parent in `parent`", for messages.
  public var description: String {
    "\(table) row \(rowid.map(String.init) ?? "?") has no parent in \(parent)"
  }
}
