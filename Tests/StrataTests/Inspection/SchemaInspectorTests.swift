import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct SchemaInspectorTests {
  @Test func sampleProjectTablesKeysAndMigrationState() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.migratedSample(in: folder)
    let schema = try SchemaInspector(Connection(path: url.path, mode: .readOnly))
      .inspect(migrations: try InspectionFixtures.sampleMigrations())

    #expect(schema.format == 1)
    #expect(schema.tables.map(\.name) == ["FIELDS", "person_info", "student"])
    #expect(schema.strataTables.map(\.name) == ["strata_migrations"])
    #expect(schema.strataTables.first?.rowCount == 5)
    #expect(
      schema.migrations
        == Schema.MigrationState(
          currentVersion: 5,
          appliedCount: 5,
          pendingCount: 0,
          migrationsDirectory: "migrations"
        )
    )

    let fields = try #require(schema.table(named: "fields"))
    let row = try #require(fields.column(named: "ROW"))
    #expect(row.isRowIDAlias)
    #expect(row.notNull, "an INTEGER PRIMARY KEY is the rowid: never NULL")
    #expect(row.primaryKeyPosition == 1)

    let person = try #require(schema.table(named: "person_info"))
    #expect(person.checks.map(\.expression) == ["age IS NULL OR age >= 0"])
    #expect(person.checks.first?.column == "age")
    #expect(person.indexes.map(\.origin) == [.unique])
    #expect(person.indexes.first?.columns.map(\.name) == ["name"])

    let student = try #require(schema.table(named: "student"))
    #expect(student.columns.map(\.name) == ["stuID", "stuName", "stuAge", "stuClass", "email"])
    #expect(student.column(named: "stuID")?.notNull == false, "a TEXT PRIMARY KEY allows NULL")
    #expect(student.indexes.map(\.name) == ["sqlite_autoindex_student_1", "student_class"])
    #expect(student.indexes.map(\.origin) == [.primaryKey, .created])
    #expect(schema.database.sqliteVersion == Connection.libraryVersion)
    #expect(schema.database.pageSize > 0 && schema.database.pageCount > 0)
    #expect(schema.database.encoding == "UTF-8")
    #expect(schema.database.journalMode == "delete")
  }

  @Test func everyFeatureOfTheRichSchema() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.richDatabase(in: folder)
    let schema = try SchemaInspector(Connection(path: url.path, mode: .readOnly)).inspect()

    #expect(schema.tables.map(\.name) == ["author", "book list", "café", "docs"])
    #expect(schema.migrations == nil)

    let author = try #require(schema.table(named: "author"))
    #expect(author.autoincrement)
    #expect(author.autoincrementSequence == 2)
    #expect(author.rowCount == 2)
    #expect(author.column(named: "name")?.collation == "NOCASE")
    #expect(author.column(named: "e\"mail") != nil)
    #expect(author.indexes.first?.origin == .unique)

    let books = try #require(schema.table(named: "book list"))
    #expect(books.withoutRowID)
    #expect(books.strict == false)
    let cents = try #require(books.column(named: "price_cents"))
    #expect(cents.generated == .stored)
    #expect(cents.generatedExpression == "CAST(price * 100 AS INTEGER)")
    let shout = try #require(books.column(named: "shout"))
    #expect(shout.generated == .virtual)
    #expect(shout.generatedExpression == "upper(title)")
    #expect(books.column(named: "price")?.defaultValue == "0.0")
    #expect(books.column(named: "isbn")?.notNull == true, "WITHOUT ROWID keys are NOT NULL")
    #expect(books.checks.map(\.sql) == ["CHECK (length(title) > 0)", "CHECK (price >= 0)"])
    #expect(books.checks.first?.name == "title_not_empty")
    #expect(
      books.foreignKeys
        == [
          Schema.ForeignKey(
            columns: ["author_id"],
            parentTable: "author",
            parentColumns: ["id"],
            onDelete: "CASCADE",
            onUpdate: "NO ACTION",
            match: "NONE"
          )
        ]
    )
    let partial = try #require(books.indexes.first { $0.name == "cheap books" })
    #expect(partial.partialWhere == "price < 10")
    #expect(partial.columns.first?.name == nil)
    #expect(partial.columns.first?.expression == "lower(title)")
    #expect(partial.columns.first?.descending == true)
    #expect(partial.columns.last?.name == "price")
    #expect(partial.columns.last?.collation == "NOCASE")

    let cafe = try #require(schema.table(named: "café"))
    #expect(cafe.strict == true)
    #expect(cafe.column(named: "naïve")?.affinity == .text)
    #expect(
      cafe.column(named: "anything")?.affinity == .blob,
      "ANY in a STRICT table converts nothing"
    )
    #expect(cafe.column(named: "n")?.defaultValue == "1")

    let docs = try #require(schema.table(named: "docs"))
    #expect(docs.kind == .virtual)
    #expect(docs.module == "fts5")
    #expect(docs.moduleArguments == "title, body")
    #expect(docs.rowCount == 2)
    #expect(
      docs.shadowTables.map(\.name) == [
        "docs_config", "docs_content", "docs_data", "docs_docsize", "docs_idx",
      ]
    )
    #expect(docs.shadowTables.allSatisfy { $0.kind == .shadow })
    #expect(docs.columns.filter(\.hidden).map(\.name) == ["docs", "rank"])

    #expect(schema.views.map(\.name) == ["cheap titles"])
    #expect(schema.views.first?.columns.map(\.name) == ["isbn", "title"])
    #expect(schema.triggers.map(\.name) == ["author_renamed"])
    #expect(schema.triggers.first?.timing == "AFTER")
    #expect(schema.triggers.first?.event == "UPDATE OF name")
    #expect(schema.triggers.first?.table == "author")
  }

  @Test(arguments: [
    ("INTEGER", Schema.Affinity.integer), ("TINYINT", .integer), ("BIGINT UNSIGNED", .integer),
    ("VARCHAR(255)", .text), ("NCHAR(55)", .text), ("CLOB", .text), ("TEXT", .text),
    ("BLOB", .blob), ("", .blob), ("REAL", .real), ("DOUBLE PRECISION", .real), ("FLOAT", .real),
    ("NUMERIC", .numeric), ("DECIMAL(10,5)", .numeric), ("BOOLEAN", .numeric), ("DATE", .numeric),
    ("CHARINT", .integer), ("FLOATING POINT", .integer), ("STRING", .numeric), ("ANY", .numeric),
  ])
  func affinityFollowsSQLiteRules(type: String, expected: Schema.Affinity) {
    #expect(Schema.Affinity(declaredType: type) == expected)
  }

  @Test func affinityMatchesWhatSQLiteStores() throws {
    // The rules, checked against SQLite itself: '12' stored in each column comes back as
    // integer, text, blob, real or numeric storage per the column's affinity.
    let connection = try Connection.inMemory()
    let types = ["INTEGER", "VARCHAR(9)", "BLOB", "DOUBLE", "DECIMAL", "FLOATING POINT", "STRING"]
    let columns = types.enumerated().map { "c\($0.offset) \($0.element)" }.joined(separator: ", ")
    try connection.execute("CREATE TABLE t (\(columns))")
    try connection.execute(
      "INSERT INTO t VALUES (\(Array(repeating: "'12.0'", count: types.count).joined(separator: ", ")))"
    )
    let stored = try connection.rows(
      "SELECT " + types.indices.map { "typeof(c\($0))" }.joined(separator: ", ") + " FROM t"
    )[0].compactMap(\.textValue)
    let schema = try SchemaInspector(connection).inspect()
    let affinities = try #require(schema.table(named: "t")).columns.map(\.affinity)
    let expectedStorage: [Schema.Affinity: String] = [
      .integer: "integer", .text: "text", .blob: "text", .real: "real", .numeric: "integer",
    ]
    #expect(affinities.map { expectedStorage[$0] } == stored)
  }

  @Test func unknownTableIsAnErrorListingTheTables() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.migratedSample(in: folder)
    let inspector = SchemaInspector(try Connection(path: url.path, mode: .readOnly))
    #expect(
      throws: InspectionError.noSuchTable(
        name: "users",
        tables: ["FIELDS", "person_info", "strata_migrations", "student"]
      )
    ) {
      try inspector.inspect(tables: ["users"])
    }
    let error = InspectionError.noSuchTable(name: "users", tables: ["post", "user"])
    #expect(error.message == "no such table: users (tables: post, user)")
  }

  @Test func someTablesOnlyWithTheirTriggersAndNamesMatchedWithoutCase() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.richDatabase(in: folder)
    let schema = try SchemaInspector(Connection(path: url.path, mode: .readOnly))
      .inspect(tables: ["AUTHOR", "cheap titles"])
    #expect(schema.tables.map(\.name) == ["author"])
    #expect(schema.views.map(\.name) == ["cheap titles"])
    #expect(schema.triggers.map(\.name) == ["author_renamed"])
    #expect(schema.selection == ["author", "cheap titles"])
  }

  @Test func twoReadsAreEqualAndJSONRoundTrips() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.richDatabase(in: folder)
    let connection = try Connection(path: url.path, mode: .readOnly)
    let first = try SchemaInspector(connection).inspect()
    let second = try SchemaInspector(connection).inspect()
    #expect(first == second)
    let json = try first.rendered(as: .json)
    #expect(try first.rendered(as: .json) == json)
    let decoded = try JSONDecoder().decode(Schema.self, from: Data(json.utf8))
    #expect(decoded == first)
  }

  @Test func inspectingLeavesTheFileUnchanged() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.richDatabase(in: folder)
    let before = try Data(contentsOf: url)
    let connection = try Connection(path: url.path, mode: .readOnly)
    _ = try SchemaInspector(connection).inspect()
    #expect(try Data(contentsOf: url) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["rich.sqlite3"]
    )
  }

  @Test func tokenizerKeepsCommasAndParenthesesInsideStringsAndQuotes() {
    let definition = TableDefinition(
      sql: """
        CREATE TABLE "a, (b" (
          "x, y" TEXT DEFAULT 'a, (b' CHECK ("x, y" <> ')'), -- a comment, with (
          [z] INT /* , ) */ COLLATE rtrim,
          CONSTRAINT "c" CHECK (z > 0)
        ) STRICT, WITHOUT ROWID
        """
    )
    #expect(definition.columns.map(\.name) == ["x, y", "z"])
    #expect(definition.columns.map(\.collation) == [nil, "rtrim"])
    #expect(definition.checks.map(\.expression) == ["\"x, y\" <> ')'", "z > 0"])
    #expect(definition.checks.map(\.name) == [nil, "c"])
    #expect(definition.strict)
    #expect(definition.withoutRowID)
  }

  @Test func displayNamesAreQuotedOnlyWhenNeeded() {
    #expect(displayIdentifier("person_info") == "person_info")
    #expect(displayIdentifier("café") == "café")
    #expect(displayIdentifier("book list") == "\"book list\"")
    #expect(displayIdentifier("e\"mail") == "\"e\"\"mail\"")
    #expect(displayIdentifier("2fa") == "\"2fa\"")
  }
}
