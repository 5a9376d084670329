import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The seeder and the inspector read a table through one reader (`SchemaPragmas`), so they
/// cannot disagree on which column is the rowid; the rule is SQLite's own.
@Suite struct SchemaPragmasTests {
  /// Each table's `id` and whether SQLite makes it the rowid (checked with `rowid = id` below).
  static let tables: [(sql: String, isAlias: Bool)] = [
    ("CREATE TABLE t (id INTEGER PRIMARY KEY, x)", true),
    ("CREATE TABLE t (id integer PRIMARY KEY, x)", true),
    ("CREATE TABLE t (id INTEGER, x, PRIMARY KEY (id DESC))", true),
    // The seeder used to trim the declared type and call this one the rowid; SQLite does not.
    ("CREATE TABLE t (id \"INTEGER \" PRIMARY KEY, x)", false),
    ("CREATE TABLE t (id \" INTEGER\" PRIMARY KEY, x)", false),
    // SQLite's quirk: a column constraint PRIMARY KEY DESC is not the rowid.
    ("CREATE TABLE t (id INTEGER PRIMARY KEY DESC, x)", false),
    ("CREATE TABLE t (id INT PRIMARY KEY, x)", false),
    ("CREATE TABLE t (id INTEGER PRIMARY KEY, x) WITHOUT ROWID", false),
    ("CREATE TABLE t (id INTEGER, x INTEGER, PRIMARY KEY (id, x))", false),
  ]

  @Test(arguments: tables)
  func rowIDAliasIsSQLitesAndBothReadersAgree(sql: String, isAlias: Bool) throws {
    let folder = try TemporaryDirectory()
    let connection = try Connection(path: folder.path("pragmas.sqlite3").path)
    try connection.execute(sql)
    try connection.execute("INSERT INTO t (id, x) VALUES (7, 1)")
    if !sql.hasSuffix("WITHOUT ROWID") {
      let sameAsRowid = try connection.scalar("SELECT rowid = id FROM t")?.integerValue == 1
      #expect(sameAsRowid == isAlias, "SQLite itself")
    }

    let inspected = try #require(SchemaInspector(connection).inspect().table(named: "t"))
    #expect(inspected.column(named: "id")?.isRowIDAlias == isAlias, "inspect")

    let seeded = try Seeder.readTable(named: "t", file: "t.csv", connection)
    let id = try #require(seeded.columnIndex(named: "id"))
    #expect(seeded.columns[id].isRowidAlias == isAlias, "seed")
  }

  @Test func readsEachPragmaOfTheMainSchema() throws {
    let folder = try TemporaryDirectory()
    let connection = try Connection(path: folder.path("pragmas.sqlite3").path)
    try connection.execute(
      """
      CREATE TABLE parent (a TEXT, b TEXT, PRIMARY KEY (a, b));
      CREATE TABLE child (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT 'x' COLLATE NOCASE,
        pa TEXT, pb TEXT,
        FOREIGN KEY (pa, pb) REFERENCES parent ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX child_name ON child (name DESC) WHERE name <> '';
      """
    )
    let pragmas = try SchemaPragmas(connection)
    let columns = try pragmas.columns(of: "child")
    #expect(columns.map(\.name) == ["id", "name", "pa", "pb"])
    #expect(columns[1].notNull && columns[1].defaultValue == "'x'")
    #expect(columns.map(\.primaryKeyPosition) == [1, 0, 0, 0])

    let indexes = try pragmas.indexes(of: "child")
    #expect(indexes.map(\.name) == ["child_name"])
    #expect(indexes.first?.unique == true && indexes.first?.partial == true)
    let key = try pragmas.keyColumns(of: "child_name")
    #expect(key.map(\.name) == ["name"] && key.first?.descending == true)

    let foreignKeys = try pragmas.foreignKeys(of: "child")
    #expect(foreignKeys.count == 1)
    #expect(foreignKeys.first?.from == ["pa", "pb"])
    #expect(foreignKeys.first?.to == [nil, nil], "REFERENCES parent names no columns")
    #expect(foreignKeys.first?.onDelete == "CASCADE")
  }
}
