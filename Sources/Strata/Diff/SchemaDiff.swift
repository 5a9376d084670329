/// Writes the migration that takes a database from its schema to a desired one, as SQLite
/// allows it: `ALTER TABLE … ADD COLUMN`, `RENAME COLUMN`, `RENAME TO` and `DROP COLUMN` where
/// they can make the change, SQLite's 12-step rebuild where they cannot (the rows copied by
/// column name, the indexes, triggers and views that depend on the table created again, the
/// AUTOINCREMENT counter kept, and the children of the table kept, since strata runs a
/// migration with foreign keys off and checks them before it commits).
///
/// Renames are never guessed: a table or column that disappears while another appears is a
/// loss of data unless a rename says otherwise, and data is lost only when allowed. The
/// migration and its down part are checked on a scratch copy of the schema with sample rows
/// before they are returned; one that fails is never returned.
package enum SchemaDiff {
  /// The migration from `current` (the schema the migrations produce, or a database's) to
  /// `desired`, with its down part when the change can be undone.
  ///
  /// - Parameters:
  ///   - current: the schema now: `MigrationSet.producedSchema()`, or a database's from
  ///     `SchemaInspector`.
  ///   - desired: the schema wanted.
  ///   - options: the renames, whether data may be lost, the oldest SQLite to run on.
  ///   - configuration: the functions and extensions the schemas' views, triggers and checks
  ///     call, for the scratch databases of the check.
  /// - Throws: `DiffError`: a rename that does not apply, a destructive change not allowed, a
  ///   new NOT NULL column without a DEFAULT, or a migration that failed its check.
  package static func migration(
    from current: Schema,
    to desired: DesiredSchema,
    options: SchemaDiffOptions = SchemaDiffOptions(),
    configuration: ConnectionConfiguration = .none
  ) throws -> GeneratedMigration {
    let version = options.oldestSQLite ?? Int32(Connection.libraryVersionNumber)
    let check = GeneratedMigrationCheck(
      current: current,
      desired: desired.schema,
      configuration: configuration
    )
    var upRebuilds: Set<String> = []
    var downRebuilds: Set<String> = []
    // Each round rebuilds more tables where ALTER TABLE did not give the desired definition.
    while true {
      var planner = SchemaChangePlanner(
        current: current,
        desired: desired.schema,
        options: options,
        sqliteVersion: version,
        desiredFile: desired.file,
        desiredLine: desired.line(of:)
      )
      planner.forcedRebuilds = upRebuilds
      let up = try planner.plan()
      let tableCount = current.tables.filter { $0.kind == .table && !isInternal($0.name) }.count
      guard !up.statements.isEmpty else {
        return GeneratedMigration(
          desiredFile: desired.file,
          upStatements: [],
          downStatements: [],
          irreversibleReason: nil,
          changes: [],
          destructiveChanges: [],
          sampledTableCount: 0,
          tableCount: tableCount
        )
      }
      let (down, irreversible) = downPlan(current, desired, options, version, downRebuilds)
      try refuseQuotedCRLF(up.statements + (down?.statements ?? []))
      switch try check.run(up: up, down: down) {
      case .passed(let sampled):
        return GeneratedMigration(
          desiredFile: desired.file,
          upStatements: up.statements,
          downStatements: down?.statements,
          irreversibleReason: irreversible,
          changes: up.changes,
          destructiveChanges: up.destructive,
          sampledTableCount: sampled.count,
          tableCount: tableCount
        )
      case .failed(let reason, let part, let tables):
        let rebuilt = part == .up ? upRebuilds : downRebuilds
        let more = tables.subtracting(rebuilt)
        guard !more.isEmpty else {
          throw DiffError.verificationFailed(
            reason: (part == .down ? "its down part: " : "") + reason
          )
        }
        if part == .up { upRebuilds.formUnion(more) } else { downRebuilds.formUnion(more) }
      }
    }
  }

  /// A migration file is read with every CR LF as LF, so a statement holding one inside a
  /// quoted name or a string would write another name or value than the one checked here.
  private static func refuseQuotedCRLF(_ statements: [PlannedStatement]) throws {
    for statement in statements {
      guard let quoted = QuotedLineEndings.quotedCRLF(in: statement.sql) else { continue }
      let tokens = SQLTokenizer(statement.sql).tokens()
      var object = statement.table.map { "the table \(displayIdentifier($0))" } ?? "a statement"
      if statement.table == nil, tokens.first?.isKeyword("CREATE") == true,
        let kind = tokens.prefix(3).first(where: { token in
          ["TABLE", "INDEX", "VIEW", "TRIGGER"].contains { token.isKeyword($0) }
        }),
        let position = tokens.firstIndex(of: kind), position + 1 < tokens.count
      {
        var name = position + 1
        if name + 2 < tokens.count, tokens[name].isKeyword("IF") { name += 3 }
        if name < tokens.count {
          object = "the \(kind.text.lowercased()) \(displayIdentifier(tokens[name].identifier))"
        }
      }
      throw DiffError.lineBreakNotKept(object: object, quoted: quoted)
    }
  }

  /// The down part: the same planning from the desired schema back to the current one, the
  /// renames turned round and data loss allowed (undoing an addition drops it); nil, with the
  /// reason, when it cannot be planned (a dropped NOT NULL column without a DEFAULT cannot
  /// come back to rows that have no value for it).
  private static func downPlan(
    _ current: Schema,
    _ desired: DesiredSchema,
    _ options: SchemaDiffOptions,
    _ version: Int32,
    _ rebuilds: Set<String>
  ) -> (PlannedMigration?, String?) {
    var reversed: [SchemaRename] = []
    let tableRenames = options.renames.filter { $0.column == nil }
    for rename in options.renames {
      if let column = rename.column {
        let table = tableRenames.first { sameName($0.table, rename.table) }?.newName ?? rename.table
        reversed.append(SchemaRename(table: table, column: rename.newName, to: column))
      } else {
        reversed.append(SchemaRename(table: rename.newName, to: rename.table))
      }
    }
    var planner = SchemaChangePlanner(
      current: desired.schema,
      desired: current,
      options: SchemaDiffOptions(renames: reversed, allowsDestructive: true),
      sqliteVersion: version,
      desiredFile: "the current schema",
      desiredLine: { _ in nil }
    )
    planner.forcedRebuilds = rebuilds
    do {
      return (try planner.plan(), nil)
    } catch DiffError.notNullWithoutDefault(let table, let column, _, _) {
      return (
        nil,
        "the column \(displayIdentifier(table)).\(displayIdentifier(column)) it drops is NOT "
          + "NULL without a DEFAULT, so it cannot come back to rows that have no value for it"
      )
    } catch DiffError.uniqueWithDefault(let table, let column, _, _) {
      return (
        nil,
        "the column \(displayIdentifier(table)).\(displayIdentifier(column)) it drops is UNIQUE "
          + "with a DEFAULT, so it cannot come back to rows that would all take that value"
      )
    } catch {
      return (nil, "the change cannot be undone (\(error))")
    }
  }
}
