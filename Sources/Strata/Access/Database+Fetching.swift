import Foundation

// Reading rows: `fetchRows`, `fetchAll`, `fetchOne`, `fetchValue`. The generic ones are
// inlinable (specialized in the caller's module, so a type decodes without generic metadata
// per call) around the non-generic steps below, which run the cached statement in place.

extension Database {
  /// Every row of a query, each by column name.
  ///
  /// - Throws: as `execute(_:_:)`.
  public func fetchRows(_ sql: String, _ arguments: SQLArguments = []) throws -> [Row] {
    let statement = try bound(sql, arguments)
    do { return try statement.rows() } catch let error as SQLiteError { throw translated(error) }
  }

  /// The first row of a query, or nil when there is none: a read by key without the array of
  /// `fetchRows` (and without stepping past the row).
  ///
  /// - Throws: as `execute(_:_:)`.
  public func fetchRow(_ sql: String, _ arguments: SQLArguments = []) throws -> Row? {
    let statement = try bound(sql, arguments)
    do { return try statement.firstRow() } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// Every row of a query as a `T`, each property from the column of its name (see
  /// `RowDecodingError` for a column missing or holding another type).
  ///
  /// - Throws: `RowDecodingError` for a row that is not a `T`; otherwise as `execute(_:_:)`.
  @inlinable
  public func fetchAll<T: Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> [T] {
    let rows = try start(sql, arguments)
    defer { finish(rows) }
    var values: [T] = []
    while try step(rows) { values.append(try Self.decode(T.self, rows)) }
    return values
  }

  /// The first row of a query as a `T`, or nil when there is no row.
  ///
  /// - Throws: as `fetchAll(_:_:_:)`.
  @inlinable
  public func fetchOne<T: Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    // Decoded in place from the statement's first row, without copying it into a `Row`.
    guard let row = try firstRow(sql, arguments) else { return nil }
    defer { finish(row) }
    return try Self.decode(T.self, row)
  }

  /// One row as a `T`: a type stored in one value (`Date`, `Data`, `String?`) reads the first
  /// column, as `fetchValue` does; any other type decodes its properties by column name.
  @inlinable
  static func decode<T: Decodable>(_ type: T.Type, _ row: RowDecoder) throws -> T {
    // The conformance check runs once per statement and type: a struct read again and again
    // skips it.
    let type = ObjectIdentifier(T.self)
    if !row.decodesByName(type) {
      if let single = T.self as? any SQLValueConvertible.Type {
        // swift-format-ignore: NeverForceUnwrap
        return try row.first(single) as! T
      }
      row.rememberDecodesByName(type)
    }
    return try T(from: row)
  }

  /// The first column of the first row as a `T`: nil when there is no row or the value is
  /// `NULL` (never 0).
  ///
  /// - Throws: `RowDecodingError.mismatch` when the value is not a `T` (text read as an
  ///   `Int`, an integer out of range); otherwise as `execute(_:_:)`.
  @inlinable
  public func fetchValue<T: SQLValueConvertible>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    guard let value = try firstValue(sql, arguments) else { return nil }
    guard let converted = T(sqlValue: value) else {
      throw mismatch(firstColumnOf: sql, type: T.self, value: value)
    }
    return converted
  }

  // MARK: - The steps

  /// The first column of the first row, read straight from the statement; nil when there is
  /// no row or the value is `NULL`.
  @usableFromInline
  func firstValue(_ sql: String, _ arguments: SQLArguments) throws -> SQLValue? {
    let statement = try bound(sql, arguments)
    do { return try statement.firstValue() } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// The decoder of `sql`'s statement standing on its first row, or nil (the statement
  /// already finished) when there is none; `finish(_:)` it once read.
  @usableFromInline
  func firstRow(_ sql: String, _ arguments: SQLArguments) throws -> RowDecoder? {
    let statement = try bound(sql, arguments)
    do {
      if try statement.step() { return statement.decoder }
    } catch let error as SQLiteError {
      statement.finish()
      throw translated(error)
    } catch {
      statement.finish()
      throw error
    }
    statement.finish()
    return nil
  }

  /// The decoder of `sql`'s statement, bound and standing before its first row: `step(_:)` it
  /// to each row, `finish(_:)` it at the end.
  @usableFromInline
  func start(_ sql: String, _ arguments: SQLArguments) throws -> RowDecoder {
    try bound(sql, arguments).decoder
  }

  /// Moves `rows` to the next row: true when there is one.
  ///
  /// - Throws: `SQLiteError` (or the `DatabaseAccessError` it stands for) when the step fails.
  @usableFromInline
  func step(_ rows: RowDecoder) throws -> Bool {
    do {
      guard try rows.statement.step() else { return false }
      rows.reader.steppedToARow()
      return true
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// Resets the statement of `rows` and clears its bindings for the next use.
  @usableFromInline
  func finish(_ rows: RowDecoder) {
    rows.statement.reset()
    rows.statement.clearBindings()
  }

  /// The error of a first column that does not hold a `type`, naming the column.
  @usableFromInline
  func mismatch(firstColumnOf sql: String, type: Any.Type, value: SQLValue) -> RowDecodingError {
    let column = (try? prepared(sql))?.0.columns.first ?? ""
    return .mismatch(column: column, type: Row.name(of: type), value: value)
  }

  /// The cached statement of `sql` with `arguments` bound.
  @inline(__always)
  private func bound(_ sql: String, _ arguments: SQLArguments) throws -> CachedStatement {
    let (statement, _) = try prepared(sql)
    do { try statement.bind(arguments) } catch let error as SQLiteError { throw translated(error) }
    return statement
  }
}

// `RowDecodable` types: `init(row:)` reads the statement's row in place.
extension Database {
  /// Every row of a query as a `T`, each read by `T.init(row:)`.
  ///
  /// - Throws: what `init(row:)` throws; otherwise as `execute(_:_:)`.
  @inlinable
  public func fetchAll<T: RowDecodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> [T] {
    try allRows(T.self, sql, arguments)
  }

  /// The first row of a query as a `T` read by `T.init(row:)`, or nil when there is no row.
  ///
  /// - Throws: as `fetchAll(_:_:_:)`.
  @inlinable
  public func fetchOne<T: RowDecodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    try firstRow(T.self, sql, arguments)
  }

  /// `fetchAll` of a type that is both `RowDecodable` and `Decodable`: read by `init(row:)`.
  ///
  /// - Throws: as `fetchAll(_:_:_:)`.
  @inlinable
  public func fetchAll<T: RowDecodable & Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> [T] {
    try allRows(T.self, sql, arguments)
  }

  /// `fetchOne` of a type that is both `RowDecodable` and `Decodable`: read by `init(row:)`.
  ///
  /// - Throws: as `fetchAll(_:_:_:)`.
  @inlinable
  public func fetchOne<T: RowDecodable & Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    try firstRow(T.self, sql, arguments)
  }

  @inlinable
  func allRows<T: RowDecodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments
  ) throws
    -> [T]
  {
    let row = LiveRow(try start(sql, arguments))
    defer { finish(row.decoder) }
    var values: [T] = []
    while try step(row.decoder) { values.append(try T(row: row)) }
    return values
  }

  @inlinable
  func firstRow<T: RowDecodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments
  ) throws
    -> T?
  {
    guard let decoder = try firstRow(sql, arguments) else { return nil }
    let row = LiveRow(consume decoder)
    defer { finish(row.decoder) }
    return try T(row: row)
  }
}
