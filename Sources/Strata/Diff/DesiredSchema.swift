import Foundation

/// The schema a project wants, written as plain `CREATE` statements (by hand, or a dump such
/// as `inspect`'s SQL format): what a generated migration moves the database to.
///
/// The statements run in a fenced in-memory database (no statement reaches a file), so the
/// schema is SQLite's own reading of them, and an error names the file and line.
package struct DesiredSchema: Sendable {
  /// The file, as the user named it, for messages.
  package let file: String
  /// The schema the statements create.
  package let schema: Schema
  /// The line on which each table, index, view and trigger is created, by lower-cased name.
  let lines: [String: Int]

  /// The schema `sql` creates.
  ///
  /// - Parameters:
  ///   - sql: the `CREATE` statements.
  ///   - file: how errors name them (`desired.sql`).
  ///   - configuration: the functions and extensions its views, triggers and checks call.
  /// - Throws: `DiffError.invalidDesiredSchema` at the first statement that is not a `CREATE`
  ///   of a table, index, view or trigger, creates one of strata's tables, or that SQLite refuses.
  package init(
    sql: String,
    file: String,
    configuration: ConnectionConfiguration = .none
  ) throws {
    let database = try configuration.openInMemory()
    _ = database.raiseFence(.noOutsideFiles)
    var lines: [String: Int] = [:]
    do {
      // A CR LF between tokens is layout; one inside a name or a string is part of it, unless
      // the whole file is written with CR LF line endings.
      let text = QuotedLineEndings.asMeant(
        sql.hasPrefix("\u{FEFF}") ? String(sql.dropFirst()) : sql
      )
      try database.executeScript(text) { statement in
        let name = try Self.createdName(statement, file: file)
        lines[asciiLowercased(name)] = lines[asciiLowercased(name)] ?? statement.line
      }
    } catch let error as ScriptError {
      throw DiffError.invalidDesiredSchema(
        file: file,
        line: error.line,
        reason: error.underlying.message
      )
    }
    self.file = file
    self.lines = lines
    // SQLite creates a view without compiling it: one that names a missing table or column is
    // a mistake the migration would carry into every database.
    for (name, line) in lines.sorted(by: { $0.value < $1.value }) {
      guard
        try database.scalar(
          "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ? COLLATE NOCASE",
          [.text(name)]
        ) != nil
      else { continue }
      do {
        _ = try database.prepare("SELECT * FROM \(quoteIdentifier(name)) LIMIT 0")
      } catch let error as SQLiteError {
        throw DiffError.invalidDesiredSchema(
          file: file,
          line: line,
          reason: "the view \(displayIdentifier(name)) does not compile (\(error.message))"
        )
      }
    }
    schema = try SchemaInspector(database).inspect()
    try Self.checkWrites(of: schema, in: database, file: file, lines: lines)
  }

  /// SQLite accepts a foreign key to a table that does not exist or to columns that are not
  /// its key, and a trigger whose body names a missing table or column, then refuses every
  /// later INSERT, UPDATE or DELETE of the table ("no such table", "foreign key mismatch",
  /// "no such column"). Compiling one of each per table (they compile the table's foreign key
  /// checks and triggers; nothing runs) finds them while they are still a typo in a file.
  private static func checkWrites(
    of schema: Schema,
    in database: Connection,
    file: String,
    lines: [String: Int]
  ) throws {
    // Every INSERT first: a foreign key is reported at its child table, where it is written,
    // before an UPDATE of its parent finds it too.
    let actions: [(String, (String, String) -> String)] = [
      ("an INSERT into", { name, _ in "INSERT INTO \(name) DEFAULT VALUES" }),
      ("an UPDATE of", { name, first in "UPDATE \(name) SET \(first) = \(first)" }),
      ("a DELETE from", { name, _ in "DELETE FROM \(name)" }),
    ]
    for (action, statement) in actions {
      for table in schema.tables where table.kind == .table {
        guard let column = table.columns.first(where: { $0.generated == nil }) else { continue }
        let sql = statement(quoteIdentifier(table.name), quoteIdentifier(column.name))
        do {
          _ = try database.prepare(sql)
        } catch let error as SQLiteError {
          throw DiffError.invalidDesiredSchema(
            file: file,
            line: lines[asciiLowercased(table.name)] ?? 1,
            reason: "\(action) \(displayIdentifier(table.name)) cannot be compiled "
              + "(\(error.message)): a foreign key must name a table the desired schema creates "
              + "and that table's primary key or UNIQUE columns, and a trigger only tables and "
              + "columns that exist"
          )
        }
      }
    }
  }

  /// The schema the file at `url` creates, named `displayPath` (default: its path) in errors.
  ///
  /// - Throws: `DiffError.unreadableDesiredSchema` when the file cannot be read as UTF-8 text;
  ///   `.invalidDesiredSchema` at its first statement that is not allowed.
  package init(
    contentsOf url: URL,
    displayPath: String? = nil,
    configuration: ConnectionConfiguration = .none
  ) throws {
    let shown = displayPath ?? url.path
    func unreadable(_ reason: String) -> DiffError {
      .unreadableDesiredSchema(file: shown, reason: reason)
    }
    switch pathStatus(atPath: url.path) {
    case .regular: break
    case .missing: throw unreadable("it does not exist")
    case .directory: throw unreadable("it is a folder, not a file of CREATE statements")
    case .special(let kind): throw unreadable("it is \(kind), not a file")
    case .unreachable(let reason): throw unreadable(reason)
    }
    guard let bytes = readFile(atPath: url.path) else {
      throw unreadable("it cannot be read (check its permissions)")
    }
    guard let text = utf8Text(bytes) else {
      throw unreadable("it is not UTF-8 text")
    }
    try self.init(sql: text, file: shown, configuration: configuration)
  }

  /// The line on which `name` is created, when the file creates it.
  func line(of name: String) -> Int? {
    lines[asciiLowercased(name)]
  }

  /// The name a statement creates; anything but a `CREATE` of a table, index, view or trigger
  /// is refused, and so are temporary objects and strata's own tables.
  private static func createdName(_ statement: ScriptStatement, file: String) throws -> String {
    let tokens = SQLTokenizer(statement.sql).tokens()
    func refuse(_ reason: String) -> DiffError {
      .invalidDesiredSchema(file: file, line: statement.line, reason: reason)
    }
    let shown = statement.sql.split(separator: "\n").first.map(String.init) ?? statement.sql
    guard tokens.first?.isKeyword("CREATE") == true else {
      throw refuse(
        "`\(shown)` is not a CREATE statement; a desired schema only creates tables, indexes, "
          + "views and triggers"
      )
    }
    var index = 1
    if index < tokens.count, tokens[index].isKeyword("TEMP") || tokens[index].isKeyword("TEMPORARY")
    {
      throw refuse("`\(shown)` creates a temporary object, which is not part of a database file")
    }
    if index < tokens.count, tokens[index].isKeyword("UNIQUE") || tokens[index].isKeyword("VIRTUAL")
    {
      index += 1
    }
    guard index < tokens.count,
      ["TABLE", "INDEX", "VIEW", "TRIGGER"].contains(where: { tokens[index].isKeyword($0) })
    else {
      throw refuse("`\(shown)` does not create a table, index, view or trigger")
    }
    index += 1
    if index + 2 < tokens.count, tokens[index].isKeyword("IF"), tokens[index + 1].isKeyword("NOT") {
      index += 3
    }
    if index + 2 < tokens.count, tokens[index + 1].isSymbol(".") { index += 2 }
    guard index < tokens.count else { throw refuse("`\(shown)` names nothing to create") }
    let name = tokens[index].identifier
    if isStrataTable(name) {
      throw refuse(
        "\(displayIdentifier(name)) is one of strata's own tables (strata_*), which strata "
          + "creates itself; leave it out of the desired schema"
      )
    }
    return name
  }
}
