import Foundation

// Writing Swift values: an `Encodable` row in, by column name, and one out by its key. Each
// property is stored as `SQLValueConvertible` stores its type, the reverse of what `fetchAll`
// and `fetchOne` read (RowEncoder.swift). The table is read from SQLite's catalogue once per
// schema version, and each write's SQL is built once per type and table and compiled once
// (the statement cache), so a loop of inserts costs binding and stepping.

extension Database {
  /// Inserts `value` as a new row of `table`: each property into the column of its name.
  ///
  /// A column without a property gets its default (or `NULL`, or a new rowid for an `INTEGER
  /// PRIMARY KEY`); a property that is nil stores `NULL`, so an `id: Int64?` left nil gets a
  /// new rowid.
  ///
  /// Returns nothing, so that `queue.write { db in try db.insert(person, into: "person") }`
  /// has no result to discard: the new row's rowid is `lastInsertRowID` afterwards (as after
  /// `execute`; a table `WITHOUT ROWID` has none).
  ///
  /// - Throws: `DatabaseAccessError` for a property without a column
  ///   (`.propertyWithoutColumn`), a NOT NULL column without a default and without a property
  ///   (`.columnWithoutProperty`), a value the column cannot take (`.valueDoesNotFit`, also when
  ///   SQLite refuses it: nil in a NOT NULL column, text in a STRICT table's INTEGER column), a
  ///   nested type (`.nestedValue`), a table that does not exist (`.noSuchTable`);
  ///   `SQLiteError` for another constraint (a UNIQUE key taken, a CHECK). Nothing is written.
  public func insert<T: Encodable>(_ value: T, into table: String) throws {
    let (encoder, shape) = try encoded(value, table)
    let plan = try writePlan(.insert, T.self, shape, table, key: nil, encoder.keys)
    try run(plan, encoder.values, T.self, table)
  }

  /// Inserts `value`, or, when a row already has its key, updates that row's columns from its
  /// properties: `INSERT … ON CONFLICT (key) DO UPDATE SET …`. Columns without a property keep
  /// what the row holds.
  ///
  /// Never `INSERT OR REPLACE`: REPLACE deletes the old row and inserts a new one, which fires
  /// its delete triggers, cascades `ON DELETE` to the rows that refer to it (foreign keys are on
  /// in the queue), gives a rowid table's row a new rowid unless the value has it, and resets
  /// the columns the type has no property for to their defaults.
  ///
  /// - Parameters:
  ///   - value: the row, each property the value of the column of its name.
  ///   - table: the table's name.
  ///   - key: the conflict's columns: nil for the primary key (the rowid in a table without
  ///     one), or the columns of a UNIQUE index. The value must have a property for each.
  /// - Throws: as `insert(_:into:)`; `DatabaseAccessError.columnWithoutProperty` for a key
  ///   column without a property, `.notAKey` for columns that are not a key.
  public func upsert<T: Encodable>(
    _ value: T,
    into table: String,
    onConflict key: [String]? = nil
  ) throws {
    let (encoder, shape) = try encoded(value, table)
    let plan = try writePlan(.upsert, T.self, shape, table, key: key, encoder.keys)
    try run(plan, encoder.values, T.self, table)
  }

  /// Updates the row of `table` that has `value`'s key: every column the type has a property
  /// for takes the property's value (nil stores `NULL`); the other columns keep theirs.
  ///
  /// A key that matches no row is an error, not a silent no-op: the app believed the row was
  /// there, and its edit would be lost (`upsert` inserts it instead).
  ///
  /// - Parameters:
  ///   - value: the row, each property the value of the column of its name.
  ///   - table: the table's name.
  ///   - key: the columns that find the row: nil for the primary key (the rowid in a table
  ///     without one), or the columns of a UNIQUE index.
  /// - Throws: `DatabaseAccessError.noRowForKey` when no row has the key; otherwise as
  ///   `upsert(_:into:onConflict:)`.
  public func update<T: Encodable>(_ value: T, in table: String, key: [String]? = nil) throws {
    let (encoder, shape) = try encoded(value, table)
    let plan = try writePlan(.update, T.self, shape, table, key: key, encoder.keys)
    try run(plan, encoder.values, T.self, table)
    if changes == 0 {
      let described = plan.keyIndices.map {
        plan.columns[$0] + " = " + WriteSQL.literal(encoder.values[$0])
      }
      throw DatabaseAccessError.noRowForKey(
        type: Row.name(of: T.self),
        table: shape.name,
        key: described.joined(separator: ", ")
      )
    }
  }

  /// Deletes the row of `table` with `key`; deleting a row that is not there is not an error
  /// (the result says whether there was one).
  ///
  /// - Parameters:
  ///   - table: the table's name.
  ///   - key: the primary key's values in order (`["S1"]`; the rowid in a table without a
  ///     primary key), or values by column name for the primary key or the columns of a
  ///     UNIQUE index (`["email": email]`).
  /// - Returns: true when a row was deleted.
  /// - Throws: `DatabaseAccessError.notAKey` for a key that is not one of the table's,
  ///   `.noSuchTable`; `SQLiteError` when SQLite refuses (a foreign key that restricts it).
  @discardableResult
  public func delete(from table: String, key: SQLArguments) throws -> Bool {
    let (sql, values) = try keyed(.delete, table, key, type: "a key")
    try execute(sql, SQLArguments(values))
    return changes > 0
  }

  /// The row of `table` with `key` as a `T` (decoded by column name, as `fetchOne(_:_:_:)`
  /// does), or nil when there is none.
  ///
  /// - Parameters:
  ///   - type: the Swift type of the row.
  ///   - table: the table's name.
  ///   - key: as `delete(from:key:)`'s. In a table without a primary key the row's `rowid` is
  ///     read too, for a `rowid` property.
  /// - Throws: `DatabaseAccessError.notAKey`, `.noSuchTable`; `RowDecodingError` for a row that
  ///   is not a `T`.
  public func fetchOne<T: Decodable>(
    _ type: T.Type,
    from table: String,
    key: SQLArguments
  ) throws -> T? {
    let (sql, values) = try keyed(.fetch, table, key, type: Row.name(of: T.self))
    return try fetchOne(T.self, sql, SQLArguments(values))
  }

  // MARK: - The steps

  /// `value` encoded into the shared encoder, and the table it is written to.
  private func encoded<T: Encodable>(
    _ value: T,
    _ table: String
  ) throws -> (RowEncoder, WriteTable) {
    let encoder = writes.encoder
    do { try encoder.encode(value) } catch let failure as RowEncoder.Failure {
      let type = Row.name(of: T.self)
      switch failure {
      case .nested(let property, let valueType):
        throw DatabaseAccessError.nestedValue(
          type: type,
          table: table,
          property: property,
          valueType: valueType
        )
      case .doesNotFit(let property, let reason):
        throw DatabaseAccessError.valueDoesNotFit(
          type: type,
          table: table,
          property: property,
          reason: reason
        )
      case .notARow:
        throw DatabaseAccessError.notARow(type: type, table: table)
      }
    }
    return (encoder, try writeTable(table, type: Row.name(of: T.self)))
  }

  /// The table as writes see it, read again when the schema changed since the last write.
  private func writeTable(
    _ table: String,
    type: @autoclosure () -> String
  ) throws -> WriteTable {
    let version = try fetchValue(Int64.self, "PRAGMA schema_version") ?? 0
    if writes.schemaVersion != version { writes.clear(schemaVersion: version) }
    if let known = writes.tables[table] { return known }
    let found: WriteTable?
    do { found = try WriteTable.read(table, on: connection) } catch let error as SQLiteError {
      throw translated(error)
    }
    guard let found else { throw DatabaseAccessError.noSuchTable(type: type(), table: table) }
    writes.tables[table] = found
    return found
  }

  /// Runs a write's statement with the encoded values, turning SQLite's refusal of a value
  /// (NOT NULL, a STRICT column's type) into the error naming the property.
  private func run<T>(
    _ plan: WriteCache.Plan,
    _ values: [SQLValue],
    _ type: T.Type,
    _ table: String
  ) throws {
    do { try execute(plan.sql, SQLArguments(values)) } catch let error as SQLiteError
      where error.isValueRefusedByColumn
    {
      // "NOT NULL constraint failed: t.c", "cannot store TEXT value in INTEGER column t.c"
      let column = error.message.split(separator: ".").last.map(String.init) ?? ""
      let index = plan.columns.firstIndex { sameName($0, column) }
      let reason =
        index.map { values[$0] == .null } == true
        ? "nil, and its column \"\(column)\" is NOT NULL"
        : "SQLite refused it: \(error.message)"
      throw DatabaseAccessError.valueDoesNotFit(
        type: Row.name(of: T.self),
        table: table,
        property: index.map { plan.properties[$0] } ?? column,
        reason: reason
      )
    }
  }

  /// The SQL of an insert, upsert or update of `type` with `properties`, built (and checked
  /// against the table) once.
  private func writePlan(
    _ kind: WriteCache.Kind,
    _ type: Any.Type,
    _ shape: WriteTable,
    _ table: String,
    key: [String]?,
    _ properties: [String]
  ) throws -> WriteCache.Plan {
    let planKey = WriteCache.PlanKey(
      kind: kind,
      table: table,
      type: ObjectIdentifier(type),
      key: key
    )
    if let plan = writes.plan(planKey, properties: properties) { return plan }
    let plan = try WriteSQL.plan(kind, Row.name(of: type), shape, key: key, properties)
    writes.keep(plan, for: planKey)
    return plan
  }

  /// The SQL of a fetch or delete by key and the key's values in its parameters' order.
  private func keyed(
    _ kind: WriteCache.Kind,
    _ table: String,
    _ key: SQLArguments,
    type: @autoclosure () -> String
  ) throws -> (String, [SQLValue]) {
    let shape = try writeTable(table, type: type())
    let (columns, values) = try WriteSQL.key(key, of: shape)
    let planKey = WriteCache.PlanKey(kind: kind, table: table, type: nil, key: columns)
    if let plan = writes.plan(planKey, properties: []) { return (plan.sql, values) }
    let plan = WriteSQL.keyPlan(kind, shape, columns)
    writes.keep(plan, for: planKey)
    return (plan.sql, values)
  }
}
