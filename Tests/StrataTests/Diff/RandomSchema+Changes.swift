@testable import Strata

/// The changes the property test makes to a random schema, as a developer makes them to a
/// schema file: columns added (at the end or between others), dropped, retyped, made NOT NULL
/// or nullable, given another DEFAULT, renamed; tables added, dropped, renamed; indexes, the
/// view and the trigger added or removed. Renames are recorded as the user would say them.
extension RandomSchema {
  /// Makes one to three random changes; returns the renames they need said.
  mutating func change<R: RandomNumberGenerator>(_ random: inout R) -> [SchemaRename] {
    var renames: [SchemaRename] = []
    // Columns this round adds: a rename applies to a column the schema had.
    var added: Set<String> = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      guard let at = tables.indices.randomElement(using: &random) else { break }
      let plain = tables[at].columns.indices.filter { index in
        let column = tables[at].columns[index]
        return column.source == nil && column.parent == nil
          && !tables[at].columns.contains { $0.source == column.name }
      }
      switch Int.random(in: 0..<17, using: &random) {
      case 0:
        let column = newColumn(for: tables[at], &random)
        added.insert(column.name)
        tables[at].columns.append(column)
      case 1:
        let column = newColumn(for: tables[at], &random)
        added.insert(column.name)
        tables[at].columns.insert(
          column,
          at: Int.random(in: 0...tables[at].columns.count, using: &random)
        )
      case 2:
        guard let index = plain.randomElement(using: &random) else { continue }
        let name = tables[at].columns.remove(at: index).name
        indexes.removeAll { $0.table == tables[at].name && $0.column == name }
        renames.removeAll { $0.column != nil && $0.newName == name }
      case 3 where !tables[at].strict:
        guard let index = plain.randomElement(using: &random) else { continue }
        let type = Self.looseTypes.randomElement(using: &random) ?? "TEXT"
        tables[at].columns[index].type = type
        tables[at].columns[index].check = false
        if tables[at].columns[index].defaultValue != nil {
          tables[at].columns[index].defaultValue = Self.literal(type)
        }
        indexes.removeAll {
          $0.table == tables[at].name && $0.column == tables[at].columns[index].name
            && $0.expression
        }
      case 4:
        guard let index = plain.randomElement(using: &random) else { continue }
        var column = tables[at].columns[index]
        column.notNull.toggle()
        if column.notNull {
          column.unique = false
          column.defaultValue = Self.literal(column.type)
        }
        tables[at].columns[index] = column
      case 5:
        guard let index = plain.randomElement(using: &random), !tables[at].columns[index].notNull,
          !tables[at].columns[index].unique
        else { continue }
        let column = tables[at].columns[index]
        tables[at].columns[index].defaultValue =
          column.defaultValue == nil ? Self.literal(column.type) : nil
      case 6:
        addIndex(&random)
      case 7:
        if !indexes.isEmpty {
          indexes.remove(at: Int.random(in: 0..<indexes.count, using: &random))
        }
      case 8:
        var table = Table(
          name: fresh("new"),
          origin: nil,
          key: .integer,
          strict: false,
          columns: []
        )
        table.columns.append(newColumn(for: table, &random))
        tables.append(table)
      case 9:
        let name = tables[at].name
        guard !tables.contains(where: { $0.columns.contains { $0.parent == name } }) else {
          continue
        }
        let origin = tables.remove(at: at).origin
        indexes.removeAll { $0.table == name }
        renames.removeAll { $0.table == origin }
      case 10:
        guard let index = plain.randomElement(using: &random), let origin = tables[at].origin,
          !renames.contains(where: { $0.column == nil && $0.table == origin }),
          !renames.contains(where: { $0.newName == tables[at].name })
        else { continue }
        let old = tables[at].columns[index].name
        guard !added.contains(old), !renames.contains(where: { $0.newName == old }) else {
          continue
        }
        let new = fresh("r")
        tables[at].columns[index].name = new
        for i in indexes.indices
        where indexes[i].table == tables[at].name && indexes[i].column == old {
          indexes[i].column = new
        }
        renames.append(SchemaRename(table: origin, column: old, to: new))
      case 11:
        guard let origin = tables[at].origin, tables[at].name == origin else { continue }
        let new = fresh("renamed")
        for i in tables.indices {
          for j in tables[i].columns.indices where tables[i].columns[j].parent == origin {
            tables[i].columns[j].parent = new
          }
        }
        for i in indexes.indices where indexes[i].table == origin { indexes[i].table = new }
        tables[at].name = new
        renames.append(SchemaRename(table: origin, to: new))
      case 12:
        guard let index = plain.randomElement(using: &random),
          tables[at].columns[index].type == "INTEGER"
        else { continue }
        tables[at].columns[index].check.toggle()
      case 13:
        // A new foreign key column: NULL in the rows there are, which no parent needs.
        guard let parent = tables.prefix(at).last(where: { $0.key != .text }) else { continue }
        let column = Column(name: fresh("fk"), type: "INTEGER", parent: parent.name)
        added.insert(column.name)
        tables[at].columns.append(column)
      case 14:
        let types = Set(Self.strictTypes).subtracting(["ANY"])
        guard tables[at].strict || tables[at].columns.allSatisfy({ types.contains($0.type) })
        else { continue }
        tables[at].strict.toggle()
      case 15:
        guard let index = plain.randomElement(using: &random),
          tables[at].columns[index].type == "TEXT", !tables[at].columns[index].unique
        else { continue }
        tables[at].columns[index].nocase.toggle()
      default:
        if Bool.random(using: &random) { view.toggle() } else { trigger.toggle() }
      }
    }
    // A column renamed in a table renamed afterwards is named by the table's old name, which
    // the renames accept.
    return renames
  }
}
