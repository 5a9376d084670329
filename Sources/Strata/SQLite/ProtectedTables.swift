import Foundation

/// Tables a fence keeps user SQL from changing (`FenceRules.protecting`). The layer that owns
/// them names them, their `CREATE` text and why they are protected: the fence knows no table
/// of its own.
///
/// A class, made once and shared: the authorizer's callback, which runs for every action of
/// every statement prepared under a fence, reads it through one reference.
package final class ProtectedTables: Sendable {
  /// The names, lowercase. The first is the one the refusal of `PRAGMA writable_schema` names.
  package let names: [String]
  /// A `CREATE TABLE IF NOT EXISTS` for each table, run (and rolled back) while the audit
  /// compiles a new trigger's body, so that a body that writes a table not created yet is
  /// seen too.
  package let createSQL: [String]
  /// The end of every refusal of a change to these tables: why they are not to be changed.
  package let rule: String
  /// The names as C strings, for the callback; never changed, freed with the value.
  private nonisolated(unsafe) let cNames: [UnsafeMutablePointer<CChar>]
  /// Every schema object named like one of the tables (name, type, table, SQL), for the audit.
  let namedObjectsSQL: String

  /// `tables` (at least one, each named as SQLite compares names, ASCII case-insensitively,
  /// with the `CREATE TABLE IF NOT EXISTS` that makes it), whose refusals end with `rule`.
  package init(_ tables: [(name: String, createSQL: String)], rule: String) {
    precondition(!tables.isEmpty, "a fence protects at least one table")
    names = tables.map { asciiLowercased($0.name) }
    createSQL = tables.map(\.createSQL)
    self.rule = rule
    cNames = names.map { strdup($0) }
    let listed = self.names.map(quoteLiteral).joined(separator: ", ")
    namedObjectsSQL = """
      SELECT lower(name), type, tbl_name, sql FROM sqlite_master
      WHERE lower(name) IN (\(listed))
      UNION ALL SELECT lower(name), type, tbl_name, sql FROM sqlite_temp_master
      WHERE lower(name) IN (\(listed))
      ORDER BY 1, 2, 3, 4
      """
  }

  /// Both sets' tables, `self`'s rule (fences that nest protect what each protects).
  func merged(with other: ProtectedTables) -> ProtectedTables {
    if other === self || other.names == names { return self }
    let ours = zip(names, createSQL).map { (name: $0, createSQL: $1) }
    let theirs = zip(other.names, other.createSQL).filter { !names.contains($0.0) }
    return ProtectedTables(ours + theirs.map { (name: $0, createSQL: $1) }, rule: rule)
  }

  deinit {
    for name in cNames { free(name) }
  }

  /// Whether `name` is one of the tables, without making a Swift string for every table a
  /// statement touches.
  func contains(_ name: UnsafePointer<CChar>) -> Bool {
    for protected in cNames where strcasecmp(name, protected) == 0 { return true }
    return false
  }
}
