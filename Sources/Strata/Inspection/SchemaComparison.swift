/// Compares two schemas object by object.
package enum SchemaComparison {
  /// What differs between `expected` (from the migrations) and `actual` (the database), in a
  /// stable order: by object name, tables first.
  package static func differences(expected: Schema, actual: Schema) -> [SchemaDifference] {
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

  static func compareSets(
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

  static func compareNamed<Item>(
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

  static func keyed<Item>(_ items: [Item], _ name: (Item) -> String) -> [String: Item] {
    Dictionary(
      items.map { (asciiLowercased(name($0)), $0) },
      uniquingKeysWith: { first, _ in first }
    )
  }

  static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
}
