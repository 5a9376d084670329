/// One way the live schema differs from what the migrations produce.
public struct SchemaDifference: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Which side has the object.
  public enum Change: String, Codable, Sendable {
    /// The migrations create it; the database does not have it.
    case missing
    /// The database has it; the migrations do not create it.
    case unexpected
    /// Both have it, differently.
    case changed
  }

  /// The kind of schema object that differs.
  public enum Object: String, Codable, Sendable {
    /// The kind of schema object that differs; its raw value is how messages name it.
    case table, column, index, foreignKey = "foreign key", check, trigger, view
  }

  /// Whether the object is missing, unexpected or changed.
  public let change: Change
  /// The kind of object: table, column, index, foreign key, check, trigger or view.
  public let object: Object
  /// `student`, `student.email`, `student_class`.
  public let name: String
  /// What differs, for a change ("type", "NOT NULL", "columns", "SQL").
  public let aspect: String?
  /// What the migrations produce.
  public let expected: String?
  /// What the database has.
  public let actual: String?

  /// Makes a difference; ``SchemaComparison`` makes them from two schemas.
  public init(
    change: Change,
    object: Object,
    name: String,
    aspect: String? = nil,
    expected: String? = nil,
    actual: String? = nil
  ) {
    self.change = change
    self.object = object
    self.name = name
    self.aspect = aspect
    self.expected = expected
    self.actual = actual
  }

  enum CodingKeys: String, CodingKey {
    case change, object, name, aspect, expected, actual, message
  }

  /// Writes every key, optional ones as `null`, and the description as `message`.
  ///
  /// - Throws: The encoder's `EncodingError`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(change, forKey: .change)
    try container.encode(object, forKey: .object)
    try container.encode(name, forKey: .name)
    try container.encode(aspect, forKey: .aspect)
    try container.encode(expected, forKey: .expected)
    try container.encode(actual, forKey: .actual)
    try container.encode(description, forKey: .message)
  }

  /// Reads the keys that ``encode(to:)`` writes; `message` is recomputed.
  ///
  /// - Throws: The decoder's `DecodingError` for a missing or mistyped key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    change = try container.decode(Change.self, forKey: .change)
    object = try container.decode(Object.self, forKey: .object)
    name = try container.decode(String.self, forKey: .name)
    aspect = try container.decodeIfPresent(String.self, forKey: .aspect)
    expected = try container.decodeIfPresent(String.self, forKey: .expected)
    actual = try container.decodeIfPresent(String.self, forKey: .actual)
  }

  /// "column student.nickname TEXT: in the database, not created by the migrations".
  public var description: String {
    let subject = "\(object.rawValue) \(name)"
    switch change {
    case .missing:
      return "\(subject)\(expected.map { " \($0)" } ?? ""): created by the migrations, "
        + "missing from the database"
    case .unexpected:
      return "\(subject)\(actual.map { " \($0)" } ?? ""): in the database, "
        + "not created by the migrations"
    case .changed:
      return "\(subject): \(aspect ?? "definition") is \(expected ?? "none") in the migrations, "
        + "\(actual ?? "none") in the database"
    }
  }
}

/// Compares two schemas object by object.
public enum SchemaComparison {
  /// What differs between `expected` (from the migrations) and `actual` (the database), in a
  /// stable order: by object name, tables first.
  public static func differences(expected: Schema, actual: Schema) -> [SchemaDifference] {
    var result: [SchemaDifference] = []
    let expectedTables = keyed(expected.tables.filter { !isStrataTable($0.name) }, \.name)
    let actualTables = keyed(actual.tables.filter { !isStrataTable($0.name) }, \.name)
    for key in (Set(expectedTables.keys).union(actualTables.keys)).sorted() {
      switch (expectedTables[key], actualTables[key]) {
      case (let wanted?, nil):
        result.append(
          SchemaDifference(change: .missing, object: .table, name: displayIdentifier(wanted.name))
        )
      case (nil, let found?):
        result.append(
          SchemaDifference(change: .unexpected, object: .table, name: displayIdentifier(found.name))
        )
      case (let wanted?, let found?):
        result += compare(wanted, found)
      default: break
      }
    }
    result += compareNamed(
      expected.views,
      actual.views,
      object: .view,
      name: \.name,
      facets: { [("SQL", normalizedSQL($0.sql), $0.sql)] }
    )
    result += compareNamed(
      expected.triggers.filter { !isStrataTable($0.table) },
      actual.triggers.filter { !isStrataTable($0.table) },
      object: .trigger,
      name: \.name,
      facets: { [("SQL", normalizedSQL($0.sql), $0.sql)] }
    )
    return result
  }

  private static func compare(_ wanted: Schema.Table, _ found: Schema.Table) -> [SchemaDifference] {
    var result: [SchemaDifference] = []
    let table = displayIdentifier(found.name)
    func changed(_ aspect: String, _ expected: String, _ actual: String) {
      result.append(
        SchemaDifference(
          change: .changed,
          object: .table,
          name: table,
          aspect: aspect,
          expected: expected,
          actual: actual
        )
      )
    }
    if wanted.kind != found.kind { changed("kind", wanted.kind.rawValue, found.kind.rawValue) }
    if wanted.kind == .virtual || found.kind == .virtual {
      let a = "\(wanted.module ?? "")(\(wanted.moduleArguments ?? ""))"
      let b = "\(found.module ?? "")(\(found.moduleArguments ?? ""))"
      if normalizedSQL(a) != normalizedSQL(b) { changed("module", a, b) }
      return result
    }
    if wanted.withoutRowID != found.withoutRowID {
      changed("WITHOUT ROWID", yesNo(wanted.withoutRowID), yesNo(found.withoutRowID))
    }
    if (wanted.strict ?? false) != (found.strict ?? false) {
      changed("STRICT", yesNo(wanted.strict ?? false), yesNo(found.strict ?? false))
    }
    if wanted.autoincrement != found.autoincrement {
      changed("AUTOINCREMENT", yesNo(wanted.autoincrement), yesNo(found.autoincrement))
    }

    // Columns.
    let wantedColumns = keyed(wanted.columns, \.name)
    let foundColumns = keyed(found.columns, \.name)
    for column in wanted.columns where foundColumns[asciiLowercased(column.name)] == nil {
      result.append(
        SchemaDifference(
          change: .missing,
          object: .column,
          name: "\(table).\(displayIdentifier(column.name))",
          expected: columnSummary(column)
        )
      )
    }
    for column in found.columns where wantedColumns[asciiLowercased(column.name)] == nil {
      result.append(
        SchemaDifference(
          change: .unexpected,
          object: .column,
          name: "\(table).\(displayIdentifier(column.name))",
          actual: columnSummary(column)
        )
      )
    }
    for column in found.columns {
      guard let want = wantedColumns[asciiLowercased(column.name)] else { continue }
      let facets: [(String, String, String)] = [
        ("type", want.declaredType.uppercased(), column.declaredType.uppercased()),
        ("NOT NULL", yesNo(want.notNull), yesNo(column.notNull)),
        ("DEFAULT", want.defaultValue ?? "none", column.defaultValue ?? "none"),
        (
          "primary key position", String(want.primaryKeyPosition), String(column.primaryKeyPosition)
        ),
        (
          "generated", generatedText(want), generatedText(column)
        ),
        ("hidden", yesNo(want.hidden), yesNo(column.hidden)),
        (
          "COLLATE", (want.collation ?? "BINARY").uppercased(),
          (column.collation ?? "BINARY").uppercased()
        ),
      ]
      for (aspect, a, b) in facets where normalizedValue(a) != normalizedValue(b) {
        result.append(
          SchemaDifference(
            change: .changed,
            object: .column,
            name: "\(table).\(displayIdentifier(column.name))",
            aspect: aspect,
            expected: a,
            actual: b
          )
        )
      }
    }
    let sharedWanted = wanted.columns.map { asciiLowercased($0.name) }.filter {
      foundColumns[$0] != nil
    }
    let sharedFound = found.columns.map { asciiLowercased($0.name) }.filter {
      wantedColumns[$0] != nil
    }
    if sharedWanted != sharedFound {
      changed(
        "column order",
        wanted.columns.map { displayIdentifier($0.name) }.joined(separator: ", "),
        found.columns.map { displayIdentifier($0.name) }.joined(separator: ", ")
      )
    }

    // Indexes: by name, except those SQLite names itself (sqlite_autoindex_…), by definition.
    func indexKey(_ index: Schema.Index) -> String {
      index.sql == nil ? "\(index.originText) \(index.columnsText)" : asciiLowercased(index.name)
    }
    func indexName(_ index: Schema.Index) -> String {
      index.sql == nil
        ? "\(table) \(index.columnsText) [\(index.originText)]" : displayIdentifier(index.name)
    }
    let wantedIndexes = Dictionary(
      wanted.indexes.map { (indexKey($0), $0) },
      uniquingKeysWith: { first, _ in first }
    )
    let foundIndexes = Dictionary(
      found.indexes.map { (indexKey($0), $0) },
      uniquingKeysWith: { first, _ in first }
    )
    for key in Set(wantedIndexes.keys).union(foundIndexes.keys).sorted() {
      switch (wantedIndexes[key], foundIndexes[key]) {
      case (let want?, nil):
        result.append(
          SchemaDifference(
            change: .missing,
            object: .index,
            name: indexName(want),
            expected: indexSummary(want, on: found.name)
          )
        )
      case (nil, let have?):
        result.append(
          SchemaDifference(
            change: .unexpected,
            object: .index,
            name: indexName(have),
            actual: indexSummary(have, on: found.name)
          )
        )
      case (let want?, let have?):
        let a = normalizedSQL(indexSummary(want, on: found.name))
        let b = normalizedSQL(indexSummary(have, on: found.name))
        if a != b {
          result.append(
            SchemaDifference(
              change: .changed,
              object: .index,
              name: indexName(have),
              aspect: "definition",
              expected: indexSummary(want, on: found.name),
              actual: indexSummary(have, on: found.name)
            )
          )
        }
      default: break
      }
    }

    // Foreign keys and checks: as sets of definitions.
    result += compareSets(
      wanted.foreignKeys.map(\.text),
      found.foreignKeys.map(\.text),
      object: .foreignKey,
      table: table
    )
    result += compareSets(
      wanted.checks.map(\.sql),
      found.checks.map(\.sql),
      object: .check,
      table: table
    )
    // What the facets above do not cover (`UNIQUE ON CONFLICT REPLACE`, `NOT NULL ON CONFLICT
    // IGNORE`, `DEFERRABLE INITIALLY DEFERRED`) still changes what the table does: compare the
    // definitions themselves, layout, comments, quoting and case aside.
    if result.isEmpty, normalizedSQL(wanted.sql) != normalizedSQL(found.sql) {
      changed("definition", wanted.sql, found.sql)
    }
    return result
  }

  private static func compareSets(
    _ wanted: [String],
    _ found: [String],
    object: SchemaDifference.Object,
    table: String
  ) -> [SchemaDifference] {
    let wantedKeys = Set(wanted.map(normalizedSQL))
    let foundKeys = Set(found.map(normalizedSQL))
    var result: [SchemaDifference] = []
    for text in wanted where !foundKeys.contains(normalizedSQL(text)) {
      result.append(SchemaDifference(change: .missing, object: object, name: table, expected: text))
    }
    for text in found where !wantedKeys.contains(normalizedSQL(text)) {
      result.append(
        SchemaDifference(change: .unexpected, object: object, name: table, actual: text)
      )
    }
    return result
  }

  private static func compareNamed<Item>(
    _ wanted: [Item],
    _ found: [Item],
    object: SchemaDifference.Object,
    name: (Item) -> String,
    facets: (Item) -> [(String, String, String)]
  ) -> [SchemaDifference] {
    let wantedItems = keyed(wanted, name)
    let foundItems = keyed(found, name)
    var result: [SchemaDifference] = []
    for key in Set(wantedItems.keys).union(foundItems.keys).sorted() {
      switch (wantedItems[key], foundItems[key]) {
      case (let want?, nil):
        result.append(
          SchemaDifference(change: .missing, object: object, name: displayIdentifier(name(want)))
        )
      case (nil, let have?):
        result.append(
          SchemaDifference(change: .unexpected, object: object, name: displayIdentifier(name(have)))
        )
      case (let want?, let have?):
        for (index, facet) in facets(want).enumerated() {
          let other = facets(have)[index]
          if facet.1 != other.1 {
            result.append(
              SchemaDifference(
                change: .changed,
                object: object,
                name: displayIdentifier(name(have)),
                aspect: facet.0,
                expected: facet.2,
                actual: other.2
              )
            )
          }
        }
      default: break
      }
    }
    return result
  }

  private static func keyed<Item>(_ items: [Item], _ name: (Item) -> String) -> [String: Item] {
    Dictionary(
      items.map { (asciiLowercased(name($0)), $0) },
      uniquingKeysWith: { first, _ in first }
    )
  }

  private static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

  private static func normalizedValue(_ text: String) -> String {
    normalizedSQL(text)
  }

  private static func generatedText(_ column: Schema.Column) -> String {
    guard let generated = column.generated else { return "no" }
    return "\(generated.rawValue) AS (\(column.generatedExpression ?? "?"))"
  }

  private static func columnSummary(_ column: Schema.Column) -> String {
    var parts = [column.declaredType.isEmpty ? "no type" : column.declaredType]
    if column.notNull { parts.append("NOT NULL") }
    if let value = column.defaultValue { parts.append("DEFAULT \(value)") }
    return parts.joined(separator: " ")
  }

  private static func indexSummary(_ index: Schema.Index, on table: String) -> String {
    (index.unique ? "UNIQUE " : "") + "ON " + displayIdentifier(table) + " " + index.columnsText
      + (index.partialWhere.map { " WHERE \($0)" } ?? "")
  }
}
