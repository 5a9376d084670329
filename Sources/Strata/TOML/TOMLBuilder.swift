/// Collects the parsed tables and refuses what TOML forbids: a key given twice, a table
/// defined twice, and a key that is also a table.
struct TOMLBuilder {
  private(set) var document = TOMLDocument(
    tables: [TOMLTable(path: [], position: TOMLPosition(line: 1, column: 1))]
  )

  /// Opens the table `path` (from a `[header]`) and returns its index.
  ///
  /// - Throws: `TOMLSyntaxError` when it is defined already or one of its keys is a value.
  mutating func open(_ path: [String], at position: TOMLPosition) throws -> Int {
    if let earlier = document.tables.first(where: { $0.path == path }) {
      throw TOMLSyntaxError(
        position: position,
        reason: "the table [\(TOMLTable.header(path))] is defined twice "
          + "(first on line \(earlier.position.line))"
      )
    }
    for length in 1...path.count {
      let parent = Array(path.prefix(length - 1))
      let name = path[length - 1]
      if let table = document.tables.first(where: { $0.path == parent }),
        let entry = table.entries.first(where: { $0.key == name })
      {
        throw TOMLSyntaxError(
          position: position,
          reason: "the table [\(TOMLTable.header(path))] clashes with the key "
            + "\(tomlKey(name)) on line \(entry.position.line)"
        )
      }
    }
    document.tables.append(TOMLTable(path: path, position: position))
    return document.tables.count - 1
  }

  /// Adds a `key = value` line to the table at `index`.
  ///
  /// - Throws: `TOMLSyntaxError` when the table has the key already, or a table of that name.
  mutating func add(_ entry: TOMLEntry, to index: Int) throws {
    let table = document.tables[index]
    if let earlier = table.entries.first(where: { $0.key == entry.key }) {
      throw TOMLSyntaxError(
        position: entry.position,
        reason: "the key \(tomlKey(entry.key)) is given twice \(Self.name(table.path)) "
          + "(first on line \(earlier.position.line))"
      )
    }
    let path = table.path + [entry.key]
    if let child = document.tables.first(where: { $0.path.starts(with: path) }) {
      throw TOMLSyntaxError(
        position: entry.position,
        reason: "the key \(tomlKey(entry.key)) clashes with the table "
          + "[\(child.header)] on line \(child.position.line)"
      )
    }
    document.tables[index].entries.append(entry)
  }

  /// `in [seeds]`, or "at the top of the file" for the root table.
  static func name(_ path: [String]) -> String {
    path.isEmpty ? "at the top of the file" : "in [\(TOMLTable.header(path))]"
  }
}
