import Foundation

/// The check a generated migration passes before anyone sees it: applied by strata's own
/// runner (foreign keys off, `foreign_key_check` before the commit) to a scratch in-memory copy
/// of the current schema holding sample rows, it must give the desired schema (compared as
/// `inspect --diff` compares), leave the rows of every table it does not change exactly as they
/// were, keep the rows of the tables it changes (their shared columns' values, the
/// AUTOINCREMENT counter), and its down part must give the current schema back.
struct GeneratedMigrationCheck {
  let current: Schema
  let desired: Schema
  let configuration: ConnectionConfiguration

  /// Which part of the migration a failure is in.
  enum Part { case up, down }

  /// Passed (with the tables that held sample rows), or why not, and the tables changed with
  /// `ALTER TABLE` that the failure points at (those the next plan should rebuild).
  enum Outcome {
    case passed(sampledTables: Set<String>)
    case failed(reason: String, part: Part, tables: Set<String>)
  }

  /// The name the generated migration has in messages.
  static let file = "the generated migration"

  func run(
    up: PlannedMigration,
    down: PlannedMigration?
  ) throws -> Outcome {
    let scratch = try copyOfCurrentSchema()
    let sampled = try SampleRows.insert(into: scratch, schema: current)
    let before = try rows(scratch, of: up.untouchedTables)
    let keptBefore = try keptRows(scratch, up, after: false)
    let migrator = Migrator(try migrationSet(up: up.statements, down: down?.statements))
    do {
      try migrator.migrate(scratch)
    } catch let error as MigrationError {
      return .failed(reason: failure(error), part: .up, tables: tables(at: error, in: up))
    }
    let migrated = try SchemaInspector(scratch).inspect()
    let differences = SchemaComparison.differences(expected: desired, actual: migrated)
    if !differences.isEmpty {
      return .failed(
        reason: "the result differs from the desired schema: " + describe(differences),
        part: .up,
        tables: implicated(differences, up)
      )
    }
    if let changed = try changedTable(scratch, before, keptBefore, up) {
      return .failed(reason: changed, part: .up, tables: [])
    }
    guard let down else { return .passed(sampledTables: sampled) }
    do {
      try migrator.rollback(scratch)
    } catch let error as MigrationError {
      return .failed(reason: failure(error), part: .down, tables: tables(at: error, in: down))
    }
    let undone = try SchemaInspector(scratch).inspect()
    let left = SchemaComparison.differences(expected: current, actual: undone)
    if !left.isEmpty {
      return .failed(
        reason: "its down part does not give the schema back: " + describe(left),
        part: .down,
        tables: implicated(left, down)
      )
    }
    for (table, rows) in before where try self.rows(scratch, of: [table])[table] != rows {
      return .failed(
        reason: "its down part changes the rows of \(displayIdentifier(table)), which the "
          + "migration does not touch",
        part: .down,
        tables: []
      )
    }
    return .passed(sampledTables: sampled)
  }

  /// An in-memory database holding the current schema, built from its dump (fenced: nothing
  /// reaches a file), checked to be the same schema.
  private func copyOfCurrentSchema() throws -> Connection {
    let scratch = try configuration.openInMemory()
    _ = scratch.raiseFence(.noOutsideFiles)
    do {
      try scratch.executeScript(SQLSchemaRenderer(schema: current).render())
    } catch let error as ScriptError {
      throw DiffError.verificationFailed(
        reason: "the current schema could not be copied into a scratch database (\(error.message))"
      )
    }
    let copy = try SchemaInspector(scratch).inspect()
    let differences = SchemaComparison.differences(expected: current, actual: copy)
    guard differences.isEmpty else {
      throw DiffError.verificationFailed(
        reason: "its scratch copy of the current schema differs from it: " + describe(differences)
      )
    }
    return scratch
  }

  /// The migration as strata runs it: one file with both parts.
  private func migrationSet(
    up: [PlannedStatement],
    down: [PlannedStatement]?
  ) throws -> MigrationSet {
    let text =
      "-- migrate:up\n" + GeneratedMigration.text(up)
      + (down.map { "\n-- migrate:down\n" + GeneratedMigration.text($0) } ?? "")
    let parsed = try MigrationParser.parseContent(bytes: Array(text.utf8), file: Self.file)
    let migration = Migration(
      version: 1,
      name: "generated",
      up: parsed.up,
      down: down == nil ? nil : parsed.down,
      checksum: parsed.checksum
    )
    return try MigrationSet([migration], directory: "(generated)")
  }

  /// Every row of each of `tables` (lower-cased names), as a count of each distinct row.
  private func rows(
    _ database: Connection,
    of tables: Set<String>
  ) throws -> [String: [[SQLValue]:
    Int]]
  {
    var result: [String: [[SQLValue]: Int]] = [:]
    for table in tables {
      result[table] = counted(try database.rows("SELECT * FROM \(quoteIdentifier(table))"))
    }
    return result
  }

  /// The values of the columns each changed table keeps with the same affinity (a generated
  /// column that becomes a plain one too), and its
  /// AUTOINCREMENT counter, before (current names) or after (desired names) the migration.
  private func keptRows(
    _ database: Connection,
    _ plan: PlannedMigration,
    after: Bool
  ) throws -> [String: [[SQLValue]: Int]] {
    var result: [String: [[SQLValue]: Int]] = [:]
    for kept in plan.keptTables where !plan.untouchedTables.contains(asciiLowercased(kept.desired))
    {
      guard let old = current.table(named: kept.current),
        let new = desired.table(named: kept.desired)
      else { continue }
      let columns = kept.columns.filter { pair in
        // A column that stays keeps its values, whether or not it was generated; one that is
        // generated in the desired table computes its own.
        guard let a = old.column(named: pair.0), let b = new.column(named: pair.1),
          b.generated == nil
        else { return false }
        return Schema.Affinity(declaredType: a.declaredType, strict: old.strict ?? false)
          == Schema.Affinity(declaredType: b.declaredType, strict: new.strict ?? false)
      }.map { quoteIdentifier(after ? $0.1 : $0.0) }
      let table = after ? kept.desired : kept.current
      var found = counted(
        try database.rows(
          "SELECT \(columns.isEmpty ? "1" : columns.joined(separator: ", ")) FROM "
            + quoteIdentifier(table)
        )
      )
      if old.autoincrement, new.autoincrement {
        let counter = try database.scalar(
          "SELECT seq FROM sqlite_sequence WHERE name = ?",
          [.text(table)]
        )
        found[[.text("AUTOINCREMENT counter"), counter ?? .null]] = 1
      }
      result[asciiLowercased(kept.desired)] = found
    }
    return result
  }

  /// Why the rows are not as they must be after the up part, or nil when they are.
  private func changedTable(
    _ database: Connection,
    _ before: [String: [[SQLValue]: Int]],
    _ keptBefore: [String: [[SQLValue]: Int]],
    _ plan: PlannedMigration
  ) throws -> String? {
    let after = try rows(database, of: Set(before.keys))
    for (table, rows) in before.sorted(by: { $0.key < $1.key }) where after[table] != rows {
      return "it changes the rows of \(displayIdentifier(table)), which it does not touch (a "
        + "cascade or a trigger of a table it changes)"
    }
    let keptAfter = try keptRows(database, plan, after: true)
    for (table, rows) in keptBefore.sorted(by: { $0.key < $1.key }) where keptAfter[table] != rows {
      return "it does not keep the rows of \(displayIdentifier(table)) (the values of the "
        + "columns it keeps, or its AUTOINCREMENT counter)"
    }
    return nil
  }

  /// What failed when the migration ran on the scratch copy, in words about the migration
  /// (the scratch copy's own state is of no interest).
  private func failure(_ error: MigrationError) -> String {
    switch error.underlyingFailure {
    case .failed(_, _, _, let failed), .partiallyApplied(_, _, _, _, let failed, _):
      let statement = failed.sql.map { sql in
        " `"
          + sql.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
          .joined(separator: " ") + "`"
      }
      return "on the sample rows, the statement\(statement ?? "") failed: \(failed.message)"
    case .foreignKeyViolation(_, _, let violations, _, _):
      return "it leaves \(violations.count) foreign key violation(s) among the sample rows ("
        + violations.prefix(3).map(\.description).joined(separator: "; ") + ")"
    default:
      return error.message
    }
  }

  private func counted(_ rows: [[SQLValue]]) -> [[SQLValue]: Int] {
    rows.reduce(into: [:]) { $0[$1, default: 0] += 1 }
  }

  /// The tables changed with `ALTER TABLE` whose statement failed.
  private func tables(at error: MigrationError, in plan: PlannedMigration) -> Set<String> {
    let line: Int
    switch error.underlyingFailure {
    case .failed(_, _, let failedLine, _), .partiallyApplied(_, _, let failedLine, _, _, _):
      line = failedLine
    default:
      return plan.alteredTables
    }
    // The part starts on line 2, after its marker; statements are a blank line apart.
    var next = 2
    for statement in plan.statements {
      let lines =
        statement.comments.count
        + terminatedStatement(statement.sql).split(
          separator: "\n",
          omittingEmptySubsequences: false
        ).count
      if line < next + lines, let table = statement.table, plan.alteredTables.contains(table) {
        return [table]
      }
      if line < next + lines { return [] }
      next += lines + 1
    }
    return []
  }

  /// The tables changed with `ALTER TABLE` that `differences` name.
  private func implicated(
    _ differences: [SchemaDifference],
    _ plan: PlannedMigration
  ) -> Set<String> {
    var tables: Set<String> = []
    for difference in differences {
      let name = asciiLowercased(difference.name)
      for table in plan.alteredTables {
        let shown = asciiLowercased(displayIdentifier(table))
        if name == shown || name.hasPrefix(shown + ".") || name.hasPrefix(shown + " ") {
          tables.insert(table)
        }
      }
      if difference.object == .index {
        for table in desired.tables + current.tables
        where table.indexes.contains(where: { sameName($0.name, difference.name) }) {
          let key = asciiLowercased(table.name)
          if plan.alteredTables.contains(key) { tables.insert(key) }
        }
      }
    }
    return tables
  }

  private func describe(_ differences: [SchemaDifference]) -> String {
    differences.prefix(5).map { difference in
      let subject = "\(difference.object.rawValue) \(difference.name)"
      switch difference.change {
      case .missing: return "\(subject) is missing"
      case .unexpected: return "\(subject) is there and should not be"
      case .changed:
        return
          "\(subject): \(difference.aspect ?? "definition") is \(difference.actual ?? "none"), "
          + "not \(difference.expected ?? "none")"
      }
    }.joined(separator: "; ") + (differences.count > 5 ? "; and \(differences.count - 5) more" : "")
  }
}
