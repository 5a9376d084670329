import Foundation

/// Two migrations in `folder/migrations` whose every part calls a function SQLite lacks (the
/// app's or an extension's), `function(x)`: in a CHECK (so every write of the table needs it),
/// in INSERTs and in the down parts. Rows x = 2, then x = 5, with y = function(x).
public enum FunctionMigrations {
  /// Writes them and returns the folder.
  @discardableResult
  public static func write(in folder: TemporaryDirectory, calling function: String) throws -> URL {
    try folder.write(
      "migrations/0001_computed.sql",
      """
      -- migrate:up
      CREATE TABLE computed (x INTEGER, y REAL CHECK (y = \(function)(x)));
      INSERT INTO computed VALUES (2, \(function)(2));
      -- migrate:down
      UPDATE computed SET y = \(function)(x);
      DROP TABLE computed;
      """
    )
    try folder.write(
      "migrations/0002_more.sql",
      """
      -- migrate:up
      INSERT INTO computed VALUES (5, \(function)(5));
      -- migrate:down
      DELETE FROM computed WHERE y = \(function)(5);
      """
    )
    return folder.path("migrations")
  }
}
