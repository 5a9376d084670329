extension Schema {
  /// A view, with its result columns.
  package struct View: Codable, Equatable, Sendable {
    /// The view's name.
    package var name: String
    /// The `CREATE VIEW` statement as stored in `sqlite_schema`.
    package var sql: String
    /// Its result columns; empty when the view cannot be compiled (it names a missing table).
    package var columns: [Column]
  }

  /// A trigger on a table or a view.
  package struct Trigger: Codable, Equatable, Sendable {
    /// The trigger's name.
    package var name: String
    /// The table or view it is on.
    package var table: String
    /// "BEFORE", "AFTER" or "INSTEAD OF".
    package var timing: String
    /// "INSERT", "DELETE", "UPDATE" or "UPDATE OF a, b".
    package var event: String
    /// The `CREATE TRIGGER` statement as stored in `sqlite_schema`.
    package var sql: String
  }
}
