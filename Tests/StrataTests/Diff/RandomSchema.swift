import Foundation

@testable import Strata

/// A small random-number generator with a seed, so that every failing case can be run again.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A schema within what SQLite supports, as a model the property test changes and renders:
/// tables with an INTEGER (or AUTOINCREMENT, or TEXT WITHOUT ROWID) key, STRICT or not, typed
/// columns with NOT NULL, DEFAULT, UNIQUE and CHECK, foreign keys to earlier tables (some
/// cascading), virtual generated columns, plain, partial and expression indexes, a view and
/// a trigger over the columns that exist.
struct RandomSchema {
  struct Column: Equatable {
    var name: String
    var type: String
    var notNull = false
    var defaultValue: String?
    var unique = false
    var check = false
    var parent: String?
    var cascade = false
    /// A virtual generated column: `length(source)`.
    var source: String?
    var nocase = false
  }

  enum Key: Equatable { case integer, autoincrement, text }

  struct Table: Equatable {
    var name: String
    /// The name the table had in the schema this one was changed from; nil for a new table.
    var origin: String?
    var key: Key
    var strict: Bool
    var columns: [Column]
  }

  struct Index: Equatable {
    var name: String
    var table: String
    var column: String
    var expression: Bool
    var partial: Bool
  }

  var tables: [Table] = []
  var indexes: [Index] = []
  var view = false
  var trigger = false
  private var counter = 0

  static let looseTypes = ["INTEGER", "TEXT", "REAL", "BLOB", "NUMERIC", ""]
  static let strictTypes = ["INTEGER", "TEXT", "REAL", "BLOB", "ANY"]

  init<R: RandomNumberGenerator>(using random: inout R) {
    for number in 0..<Int.random(in: 2...4, using: &random) {
      var table = Table(
        name: "t\(number)",
        origin: "t\(number)",
        key: [.integer, .integer, .autoincrement, .text].randomElement(using: &random) ?? .integer,
        strict: Int.random(in: 0..<5, using: &random) == 0,
        columns: []
      )
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        table.columns.append(newColumn(for: table, &random))
      }
      if number > 0, Bool.random(using: &random) {
        let parent = tables[Int.random(in: 0..<tables.count, using: &random)]
        if parent.key != .text {
          table.columns.append(
            Column(
              name: fresh("fk"),
              type: "INTEGER",
              parent: parent.name,
              cascade: Bool.random(using: &random)
            )
          )
        }
      }
      if let text = table.columns.first(where: { $0.type == "TEXT" }), Bool.random(using: &random) {
        table.columns.append(
          Column(name: fresh("len"), type: "INTEGER", source: text.name)
        )
      }
      tables.append(table)
    }
    for _ in 0..<Int.random(in: 0...3, using: &random) { addIndex(&random) }
    view = Bool.random(using: &random)
    trigger = Bool.random(using: &random)
  }

  mutating func fresh(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  mutating func newColumn<R: RandomNumberGenerator>(for table: Table, _ random: inout R) -> Column {
    let type =
      (table.strict ? Self.strictTypes : Self.looseTypes).randomElement(using: &random) ?? "TEXT"
    var column = Column(name: fresh("c"), type: type)
    if Int.random(in: 0..<3, using: &random) == 0 {
      column.notNull = true
      column.defaultValue = Self.literal(type)
    } else if Bool.random(using: &random) {
      column.defaultValue = Self.literal(type)
    }
    column.check = type == "INTEGER" && Int.random(in: 0..<4, using: &random) == 0
    // UNIQUE with a DEFAULT cannot be added to a table with rows (every row takes the value).
    column.unique = column.defaultValue == nil && Int.random(in: 0..<8, using: &random) == 0
    return column
  }

  mutating func addIndex<R: RandomNumberGenerator>(_ random: inout R) {
    guard let table = tables.randomElement(using: &random),
      let column = table.columns.filter({ $0.source == nil }).randomElement(using: &random)
    else { return }
    indexes.append(
      Index(
        name: fresh("i"),
        table: table.name,
        column: column.name,
        expression: column.type == "TEXT" && Bool.random(using: &random),
        partial: Bool.random(using: &random)
      )
    )
  }

  /// A constant of the type, for a DEFAULT.
  static func literal(_ type: String) -> String {
    switch type {
    case "INTEGER", "NUMERIC", "": "7"
    case "REAL": "1.5"
    case "BLOB": "x'00'"
    default: "'d'"
    }
  }

  /// The schema as CREATE statements.
  var sql: String {
    var statements: [String] = []
    for table in tables {
      var items: [String]
      switch table.key {
      case .integer: items = ["id INTEGER PRIMARY KEY"]
      case .autoincrement: items = ["id INTEGER PRIMARY KEY AUTOINCREMENT"]
      case .text: items = ["id TEXT PRIMARY KEY"]
      }
      for column in table.columns {
        var text = column.type.isEmpty ? column.name : "\(column.name) \(column.type)"
        if let source = column.source { text += " AS (length(\(source)))" }
        if column.notNull { text += " NOT NULL" }
        if let value = column.defaultValue { text += " DEFAULT \(value)" }
        if column.unique { text += " UNIQUE" }
        if column.nocase { text += " COLLATE NOCASE" }
        if column.check { text += " CHECK (\(column.name) IS NULL OR \(column.name) > -1000000)" }
        if let parent = column.parent {
          text += " REFERENCES \(parent) (id)" + (column.cascade ? " ON DELETE CASCADE" : "")
        }
        items.append(text)
      }
      var options: [String] = []
      if table.key == .text { options.append("WITHOUT ROWID") }
      if table.strict { options.append("STRICT") }
      statements.append(
        "CREATE TABLE \(table.name) (\(items.joined(separator: ", ")))"
          + (options.isEmpty ? "" : " " + options.joined(separator: ", "))
      )
    }
    for index in indexes {
      let term = index.expression ? "(lower(\(index.column)))" : index.column
      statements.append(
        "CREATE INDEX \(index.name) ON \(index.table) (\(term))"
          + (index.partial ? " WHERE \(index.column) IS NOT NULL" : "")
      )
    }
    if view, let table = tables.first {
      let columns = (["id"] + table.columns.prefix(2).map(\.name)).joined(separator: ", ")
      statements.append("CREATE VIEW v_\(table.name) AS SELECT \(columns) FROM \(table.name)")
    }
    if trigger, let table = tables.last, let first = tables.first {
      statements.append(
        "CREATE TRIGGER trg_\(table.name) AFTER UPDATE ON \(table.name) BEGIN "
          + "SELECT count(*) FROM \(first.name); END"
      )
    }
    return statements.map { $0 + ";\n" }.joined()
  }
}
