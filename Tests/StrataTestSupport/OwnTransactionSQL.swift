/// The golang-migrate files of a folder run with `x-no-tx-wrap`, shared by the library's and the
/// CLI's tests of files that manage their own transaction.
public enum OwnTransactionSQL {
  /// Version 1: a parent table with a NULL name and a child that references it.
  public static let create = [
    "0001_create.up.sql": """
    CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
    CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
    INSERT INTO parent VALUES (1, 'a'), (2, NULL);
    INSERT INTO child VALUES (10, 1);
    """,
    "0001_create.down.sql": "DROP TABLE child;\nDROP TABLE parent;\n",
  ]

  /// golang-migrate's documented table rebuild for SQLite: the name becomes NOT NULL.
  public static let rebuild = """
    PRAGMA foreign_keys=OFF;
    BEGIN TRANSACTION;
    CREATE TABLE new_parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
    INSERT INTO new_parent SELECT id, coalesce(name, '') FROM parent;
    DROP TABLE parent;
    ALTER TABLE new_parent RENAME TO parent;
    COMMIT;
    PRAGMA foreign_keys=ON;
    """

  /// Its down file, with SQLite's other spellings (`BEGIN IMMEDIATE`, `END TRANSACTION`).
  public static let rebuildBack = """
    PRAGMA foreign_keys=OFF;
    BEGIN IMMEDIATE;
    CREATE TABLE old_parent (id INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO old_parent SELECT id, nullif(name, '') FROM parent;
    DROP TABLE parent;
    ALTER TABLE old_parent RENAME TO parent;
    END TRANSACTION;
    PRAGMA foreign_keys=ON;
    """
}
