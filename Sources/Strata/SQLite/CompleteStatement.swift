#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// Whether `sql` ends with a complete statement, as SQLite's shell decides it
/// (`sqlite3_complete`): a `;` inside a string, a comment or a trigger's body does not end one.
func isCompleteStatement(_ sql: String) -> Bool {
  sqlite3_complete(sql) != 0
}
