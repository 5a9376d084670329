import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct SchemaRendererTests {
  private func sampleSchema(_ folder: TemporaryDirectory) throws -> Schema {
    let url = try InspectionFixtures.migratedSample(in: folder)
    return try SchemaInspector(Connection(path: url.path, mode: .readOnly))
      .inspect(migrations: try InspectionFixtures.sampleMigrations())
  }

  private func richSchema(_ folder: TemporaryDirectory) throws -> Schema {
    let url = try InspectionFixtures.richDatabase(in: folder)
    return try SchemaInspector(Connection(path: url.path, mode: .readOnly)).inspect()
  }

  @Test func textShowsTablesColumnsKeysAndStateWithin80Columns() throws {
    let folder = try TemporaryDirectory()
    let text = try sampleSchema(folder).rendered(as: .text, databaseName: "sample.sqlite3")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "Database    sample.sqlite3")
    #expect(lines.contains("Migrations  version 5, 5 applied, 0 pending in migrations"))
    #expect(lines.contains("3 tables, 3 indexes, 0 views, 0 triggers"))
    #expect(lines.contains("TABLE person_info (0 rows)"))
    #expect(lines.contains("  COLUMN  TYPE     AFFINITY  NULL  KEY  NOTES"))
    #expect(lines.contains("  id      INTEGER  INTEGER   no    PK   rowid alias"))
    #expect(lines.contains("  name    TEXT     TEXT      no    UK"))
    #expect(lines.contains("  CHECK (age IS NULL OR age >= 0)"))
    #expect(lines.contains("  INDEX student_class (stuClass)"))
    #expect(lines.contains("  UNIQUE INDEX sqlite_autoindex_student_1 (stuID)  [PRIMARY KEY]"))
    #expect(lines.contains("strata's own tables"))
    #expect(lines.contains("  strata_migrations  5 rows"))
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
  }

  @Test func textQuotesAwkwardNamesAndShowsSQLiteSpecifics() throws {
    let folder = try TemporaryDirectory()
    let text = try richSchema(folder).rendered(as: .text)
    #expect(text.contains("TABLE \"book list\" (0 rows, WITHOUT ROWID)"))
    #expect(text.contains("TABLE café (0 rows, STRICT)"))
    #expect(text.contains("TABLE author (2 rows, AUTOINCREMENT (sequence at 2))"))
    #expect(text.contains("\"e\"\"mail\""))
    #expect(text.contains("generated stored AS (CAST(price * 100 AS INTEGER))"))
    #expect(text.contains("generated virtual AS (upper(title))"))
    #expect(text.contains("COLLATE NOCASE"))
    #expect(
      text.contains(
        "INDEX \"cheap books\" ((lower(title)) DESC, price COLLATE NOCASE) WHERE price < 10"
      )
    )
    #expect(text.contains("FOREIGN KEY (author_id) REFERENCES author (id) ON DELETE CASCADE"))
    #expect(text.contains("VIRTUAL TABLE docs USING fts5(title, body) (2 rows)"))
    #expect(text.contains("    docs_content  2 rows"))
    #expect(text.contains("TRIGGER author_renamed AFTER UPDATE OF name"))
    #expect(text.contains("VIEW \"cheap titles\""))
  }

  @Test func jsonHasFormatOneAndEveryKeyEvenWhenNull() throws {
    let folder = try TemporaryDirectory()
    let json = try sampleSchema(folder).rendered(as: .json)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    )
    #expect(object["format"] as? Int == 1)
    let tables = try #require(object["tables"] as? [[String: Any]])
    #expect(tables.compactMap { $0["name"] as? String } == ["FIELDS", "person_info", "student"])
    let columns = try #require(tables.first?["columns"] as? [[String: Any]])
    #expect(columns.first?.keys.contains("defaultValue") == true)
    #expect(columns.first?["defaultValue"] is NSNull)
    #expect(columns.first?["notNull"] as? Bool == true)
    let migrations = try #require(object["migrations"] as? [String: Any])
    #expect(migrations["currentVersion"] as? Int == 5)
    #expect(migrations["pendingCount"] as? Int == 0)
  }

  @Test func markdownHasOneSectionPerTableAndTheDiagram() throws {
    let folder = try TemporaryDirectory()
    let markdown = try sampleSchema(folder).rendered(as: .markdown, databaseName: "sample.sqlite3")
    #expect(markdown.hasPrefix("# Schema of `sample.sqlite3`\n"))
    #expect(markdown.contains("\n## `FIELDS`\n"))
    #expect(markdown.contains("\n## `person_info`\n"))
    #expect(markdown.contains("\n## `student`\n"))
    #expect(markdown.contains("| 2 | `name` | TEXT | TEXT | false |  | UK |  |"))
    #expect(markdown.contains("| `CHECK (age IS NULL OR age >= 0)` |"))
    #expect(markdown.contains("```mermaid\nerDiagram\n"))
    #expect(markdown.contains("| Migrations | version 5, 5 applied, 0 pending in `migrations` |"))
  }

  @Test func markdownEscapesPipesAndBackticks() throws {
    let connection = try Connection.inMemory()
    try connection.execute("CREATE TABLE \"a|b`c\" (\"x|y\" TEXT DEFAULT 'p|q')")
    let markdown = try SchemaInspector(connection).inspect().rendered(as: .markdown)
    #expect(markdown.contains("\n## `` a|b`c ``\n"))
    #expect(markdown.contains("| `` a\\|b`c `` | table | 1 | 0 |  |"))
    #expect(markdown.contains("| 1 | `x\\|y` | TEXT | TEXT | true | `'p\\|q'` |"))
  }

  @Test func mermaidOfTheSampleIsValid() throws {
    let folder = try TemporaryDirectory()
    let mermaid = try sampleSchema(folder).rendered(as: .mermaid)
    #expect(MermaidGrammar.problems(in: mermaid) == [])
    #expect(
      mermaid == """
        erDiagram
          "FIELDS" {
            INTEGER ROW PK
            TEXT FIELD_DATA
          }
          "person_info" {
            INTEGER id PK
            TEXT name UK
            INTEGER age
          }
          "student" {
            TEXT stuID PK
            TEXT stuName
            INTEGER stuAge
            TEXT stuClass
            TEXT email
          }

        """
    )
  }

  @Test func mermaidRelationshipsHaveCardinalityAndAwkwardNamesAreMadeSafe() throws {
    let connection = try Connection.inMemory()
    try connection.execute(
      """
      CREATE TABLE "user" (id INTEGER PRIMARY KEY, "e-mail" TEXT UNIQUE, pk TEXT);
      CREATE TABLE "50% ""off"" \\" ("naïve col" DECIMAL(10,5), "2x" VARCHAR(9));
      CREATE TABLE post (
        id INTEGER PRIMARY KEY,
        author INTEGER NOT NULL REFERENCES "user",
        editor INTEGER REFERENCES "user" (id)
      );
      CREATE TABLE profile (user_id INTEGER PRIMARY KEY REFERENCES "user");
      CREATE TABLE class (x);
      """
    )
    let mermaid = try SchemaInspector(connection).inspect().rendered(as: .mermaid)
    #expect(MermaidGrammar.problems(in: mermaid) == [], "\(mermaid)")
    #expect(mermaid.contains("  \"user\" ||..o{ \"post\" : \"author\""))
    #expect(mermaid.contains("  \"user\" |o..o{ \"post\" : \"editor\""))
    #expect(mermaid.contains("  \"user\" ||--o| \"profile\" : \"user_id\""))
    #expect(mermaid.contains("  \"50_ _off_ _\" {"))
    #expect(mermaid.contains("    TEXT e_mail UK \"e-mail\""))
    #expect(mermaid.contains("    TEXT _pk \"pk\""))
    #expect(mermaid.contains("    DECIMAL(10_5) na_ve_col \"naïve col\""))
    #expect(mermaid.contains("    VARCHAR(9) _2x \"2x\""))
    #expect(mermaid.contains("  \"class\" {"))
  }

  @Test func mermaidOfTheRichSchemaIsValid() throws {
    let folder = try TemporaryDirectory()
    let mermaid = try richSchema(folder).rendered(as: .mermaid)
    #expect(MermaidGrammar.problems(in: mermaid) == [], "\(mermaid)")
    #expect(mermaid.contains("  \"author\" ||..o{ \"book list\" : \"author_id\""))
    #expect(!mermaid.contains("docs_content"), "shadow tables are left out")
  }

  @Test func sqlDumpIsOrderedAndEndsEachStatement() throws {
    let folder = try TemporaryDirectory()
    let sql = try sampleSchema(folder).rendered(as: .sql)
    let statements = sql.split(separator: "\n\n").filter { !$0.hasPrefix("--") }
    #expect(statements.count == 4)
    #expect(statements[0].hasPrefix("CREATE TABLE FIELDS"))
    #expect(statements[1].hasPrefix("CREATE TABLE \"person_info\""))
    #expect(statements[2].hasPrefix("CREATE TABLE student"))
    #expect(statements[3] == "CREATE INDEX student_class ON student (stuClass);\n")
    #expect(!sql.contains("strata_migrations ("))
  }

  @Test func sqlDumpRecreatesTheSameSchemaThroughSQLite3() throws {
    let folder = try TemporaryDirectory()
    let original = try InspectionFixtures.richDatabase(in: folder)
    let before = try SchemaInspector(Connection(path: original.path, mode: .readOnly)).inspect()
    let dump = try before.rendered(as: .sql)
    let copy = folder.path("copy.sqlite3")
    try InspectionFixtures.sqlite3([copy.path], input: dump)
    let after = try SchemaInspector(Connection(path: copy.path, mode: .readOnly)).inspect()

    #expect(SchemaComparison.differences(expected: before, actual: after) == [])
    #expect(after.tables.map(\.name) == before.tables.map(\.name))
    #expect(after.tables.map(\.columns) == before.tables.map(\.columns))
    #expect(after.tables.map(\.indexes) == before.tables.map(\.indexes))
    #expect(after.tables.map(\.checks) == before.tables.map(\.checks))
    #expect(after.tables.map(\.foreignKeys) == before.tables.map(\.foreignKeys))
    #expect(
      after.tables.flatMap(\.shadowTables).map(\.name)
        == before.tables.flatMap(\.shadowTables).map(\.name)
    )
    #expect(after.views == before.views)
    #expect(after.triggers == before.triggers)
    #expect(try after.rendered(as: .sql) == dump, "the dump of the copy is the same file")
  }

  @Test func sqlDumpSurvivesATrailingComment() throws {
    let connection = try Connection.inMemory()
    try connection.execute("CREATE TABLE t (a) -- note\n; CREATE TABLE u (b);")
    let dump = try SchemaInspector(connection).inspect().rendered(as: .sql)
    let copy = try Connection.inMemory()
    try copy.execute(dump)
    #expect(try SchemaInspector(copy).inspect().tables.map(\.name) == ["t", "u"])
  }
}
