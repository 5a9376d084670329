/// A statement the `Database` keeps in its cache, with what is read once from it, and the
/// steps of running it: bind, step, read, finish.
///
/// The steps are methods of this object so that each runs with the statement borrowed from it,
/// without a retain and a release of the statement per call. They throw `SQLiteError` as
/// SQLite gave it; `Database` puts it in the queue's words.
final class CachedStatement {
  let statement: Statement
  /// The result's column names, read again when SQLite compiled the statement again.
  var columns: [String] { decoder.columns }
  /// The number of parameters, read once.
  let parameterCount: Int
  /// True when every parameter is a plain `?` (or there are none), checked once.
  let isPositional: Bool
  /// The decoder of this statement's current row, kept with it.
  let decoder: RowDecoder
  /// When the cache last handed this statement out (its clock).
  var lastUse = 0
  /// The tables the statement, and the triggers and foreign-key actions it fires, may write,
  /// as SQLite's authorizer reported them when it compiled the statement (a live query is
  /// told of a commit by them: the cached statement is not compiled again).
  var writes: TableSet
  /// The tables it reads, once a live query asked (nil until then).
  var reads: TableSet?
  /// The savepoint it begins, releases or rolls back to, if it is a savepoint statement.
  let savepoint: SavepointStep?
  /// `statement.recompileCount` when `writes` and `reads` were recorded: once SQLite
  /// compiles the statement again (a schema change), they are recorded again.
  var tablesRecordedAt: Int32 = 0

  init(_ statement: Statement, tables: RecordedTables) {
    self.statement = statement
    writes = tables.writes
    reads = tables.recordsReads ? tables.reads : nil
    savepoint = tables.savepoint
    parameterCount = statement.parameterCount
    isPositional = (0..<parameterCount).allSatisfy {
      statement.parameterName(at: $0 + 1)?.first.map { $0 == "?" } ?? true
    }
    decoder = RowDecoder(RowReader(statement))
  }

  /// Binds `arguments` to the statement, checked against its parameters as read once; on a
  /// failure the bindings are cleared again.
  ///
  /// - Throws: as `Statement.bind(_:parameterCount:isPositional:)`.
  @inline(__always)
  func bind(_ arguments: SQLArguments) throws {
    decoder.reader.startRun()
    do {
      try statement.bind(arguments, parameterCount: parameterCount, isPositional: isPositional)
    } catch {
      statement.clearBindings()
      throw error
    }
  }

  /// Moves to the next row: true when there is one (its columns as they are now).
  ///
  /// - Throws: `SQLiteError` when the step fails.
  @inline(__always)
  func step() throws -> Bool {
    guard try statement.step() else { return false }
    decoder.reader.steppedToARow()
    return true
  }

  /// Resets the statement and clears its bindings for the next use.
  @inline(__always)
  func finish() {
    statement.reset()
    statement.clearBindings()
  }

  /// The first column of the first row (bound already), nil when there is no row or it is
  /// `NULL`; finished afterwards.
  ///
  /// - Throws: `SQLiteError` when the step fails.
  @inline(__always)
  func firstValue() throws -> SQLValue? {
    defer { finish() }
    guard try step(), !columns.isEmpty else { return nil }
    let value = statement.value(at: 0)
    return value == .null ? nil : value
  }

  /// The first row (bound already) as a `Row`, or nil; finished afterwards.
  ///
  /// - Throws: `SQLiteError` when the step fails.
  func firstRow() throws -> Row? {
    defer { finish() }
    guard try step() else { return nil }
    return currentRow
  }

  /// Every row (bound already) as `Row`s; finished afterwards.
  ///
  /// - Throws: `SQLiteError` when a step fails.
  func rows() throws -> [Row] {
    defer { finish() }
    var rows: [Row] = []
    while try step() { rows.append(currentRow) }
    return rows
  }

  /// The row the statement stands on, copied out of it.
  private var currentRow: Row {
    // A few columns as an array literal, allocated at its size in one step (`map` reserves,
    // then appends one value at a time).
    let values: [SQLValue]
    switch columns.count {
    case 1: values = [statement.value(at: 0)]
    case 2: values = [statement.value(at: 0), statement.value(at: 1)]
    case 3: values = [statement.value(at: 0), statement.value(at: 1), statement.value(at: 2)]
    default: values = (0..<columns.count).map { statement.value(at: $0) }
    }
    return Row(columns: columns, values: values)
  }
}
