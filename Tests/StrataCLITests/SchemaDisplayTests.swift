import Foundation
import Strata
import StrataArguments
import StrataCLI
import StrataTestSupport
import Testing

/// Issue 32: text, Markdown and Mermaid `inspect` escape each value where the renderers print
/// it, instead of encoding the schema to JSON, escaping every string and decoding it again. A
/// schema with a control character in every name and value it holds renders byte for byte as
/// that round trip rendered it (kept here as the reference, through `JSONSerialization`), and
/// no name starts a line.
@Suite struct SchemaDisplayTests {
  /// A database with a control in every place SQLite keeps a name or a value, and facts,
  /// history, strata's tables and a virtual table with a shadow table set by hand.
  static func hostileSchema(in dir: TemporaryDirectory) throws -> Schema {
    let url = dir.path("hostile.sqlite3")
    let connection = try Connection(path: url.path)
    try connection.execute(
      """
      CREATE TABLE "p\u{1B}[31mparent" ("id\u{202E}" INTEGER PRIMARY KEY, "k\u{7}" TEXT UNIQUE);
      CREATE TABLE "t\nError: forged" (
        "c\u{1B}[2J" "TEXT\u{85}TYPE" NOT NULL DEFAULT 'a
      b',
        "p\u{2028}id" INTEGER REFERENCES "p\u{1B}[31mparent" ("id\u{202E}") ON DELETE CASCADE,
        g INTEGER GENERATED ALWAYS AS (length('x
      y')) VIRTUAL,
        CONSTRAINT "chk\u{1B}" CHECK ("c\u{1B}[2J" <> 'q
      r')
      );
      CREATE INDEX "i\u{1B}x" ON "t\nError: forged"
        ("c\u{1B}[2J" DESC, (lower("c\u{1B}[2J"))) WHERE "c\u{1B}[2J" <> 'w
      x';
      CREATE VIEW "v\u{202E}" AS SELECT "c\u{1B}[2J" AS "a\u{1B}b" FROM "t\nError: forged";
      CREATE TRIGGER "tr\u{1B}" AFTER INSERT ON "t\nError: forged" BEGIN
        SELECT 'in
      side'; /* a
      comment */
      END;
      """
    )
    var schema = try SchemaInspector(Connection(path: url.path, mode: .readOnly)).inspect()
    schema.database.encoding = "UTF-8\u{1B}"
    schema.database.journalMode = "delete\n"
    schema.database.autoVacuum = "none\u{202E}"
    schema.database.sqliteVersion = "3\u{7}"
    schema.migrations = Schema.MigrationState(
      currentVersion: 3,
      appliedCount: 1,
      pendingCount: 2,
      migrationsDirectory: "mig\nrations\u{1B}"
    )
    var virtual = try #require(schema.tables.first { $0.name.hasPrefix("p") })
    virtual.name = "fts\u{1B}"
    virtual.kind = .virtual
    virtual.module = "fts5\u{7}"
    virtual.moduleArguments = "a,\nb"
    var shadow = virtual
    shadow.kind = .shadow
    shadow.name = "fts\u{1B}_data"
    shadow.module = nil
    shadow.moduleArguments = nil
    virtual.shadowTables = [shadow]
    schema.tables.append(virtual)
    var own = virtual
    own.name = "strata_\u{1B}own"
    own.kind = .table
    own.shadowTables = []
    schema.strataTables = [own]
    return schema
  }

  /// The schema as the JSON round trip showed it: every string escaped by its key, `sql` as a
  /// statement, anything else as a value.
  static func roundTripShown(_ schema: Schema) throws -> Schema {
    func escaped(_ value: Any, key: String?) -> Any {
      switch value {
      case let text as String:
        key == "sql" ? SchemaDisplay.escaping.statement(text) : escapingControls(text)
      case let items as [Any]: items.map { escaped($0, key: key) }
      case let members as [String: Any]:
        Dictionary(uniqueKeysWithValues: members.map { ($0.key, escaped($0.value, key: $0.key)) })
      default: value
      }
    }
    let tree = try JSONSerialization.jsonObject(with: JSONEncoder().encode(schema))
    let data = try JSONSerialization.data(withJSONObject: escaped(tree, key: nil))
    return try JSONDecoder().decode(Schema.self, from: data)
  }

  @Test(arguments: [SchemaFormat.text, .markdown, .mermaid])
  func everyValueIsEscapedAsTheRoundTripEscapedIt(format: SchemaFormat) throws {
    let dir = try TemporaryDirectory()
    let schema = try Self.hostileSchema(in: dir)
    for selection in [[], ["t\nError: forged"]] {
      var chosen = schema
      chosen.selection = selection
      let shown = try SchemaDisplay.rendered(chosen, as: format, databaseName: "db\\u{A}")
      let reference = try Self.roundTripShown(chosen).rendered(
        as: format,
        databaseName: "db\\u{A}"
      )
      #expect(shown == reference)
      // No name starts a line of its own (the statements' other controls are escaped line by
      // line where the CLI prints them, `CommandContext.printText`).
      #expect(!shown.split(separator: "\n").contains { $0.hasPrefix("Error: forged") })
      if format == .mermaid {  // no statements: nothing raw at all
        #expect(!shown.unicodeScalars.contains { $0 != "\n" && isHiddenControl($0) })
      }
    }
    // The names are there, escaped.
    let shown = try SchemaDisplay.rendered(schema, as: format, databaseName: nil)
    #expect(shown.contains("\\u{1B}[2J"))
  }
}
