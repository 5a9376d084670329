extension Schema {
  /// A view, with its result columns.
  public struct View: Codable, Equatable, Sendable {
    /// The view's name.
    public var name: String
    /// The `CREATE VIEW` statement as stored in `sqlite_schema`.
    public var sql: String
    /// Its result columns; empty when the view cannot be compiled (it names a missing table).
    public var columns: [Column]
  }

  /// A trigger on a table or a view.
  public struct Trigger: Codable, Equatable, Sendable {
    /// The trigger's name.
    public var name: String
    /// The table or view it is on.
    public var table: String
    /// "BEFORE", "AFTER" or "INSTEAD OF".
    public var timing: String
    /// "INSERT", "DELETE", "UPDATE" or "UPDATE OF a, b".
    public var event: String
    /// The `CREATE TRIGGER` statement as stored in `sqlite_schema`.
    public var sql: String
  }
}
