/// Reads the row a cached statement stands on now: a value by index, a column by name (as
/// `Row.index(of:)` finds it). One reader serves every row of its statement, shared by the
/// statement's `RowDecoder`, its keyed containers and `LiveRow`.
///
/// A name is first compared with the column after the one found last (the first after the
/// last): a type that reads its columns in the query's order, row after row, finds each with
/// one comparison.
@usableFromInline
final class RowReader {
  @usableFromInline
  let statement: Statement
  /// The columns' names, in the order of the query.
  private(set) var names: [String]
  /// True when no two columns have the same name, so that a column found at the guess is the
  /// first of its name (the one `Row.index(of:)` finds).
  private var namesAreDistinct: Bool
  /// The guess: the column after the one found last, or the first after the last.
  private var next = 0
  /// `statement.recompileCount` when `names` were read.
  private var namesReadAt: Int32
  /// True from a bind to the first row: SQLite compiles a statement again only at a run's
  /// first step, so only the first row checks it.
  private var isBeforeFirstRow = true

  init(_ statement: Statement) {
    self.statement = statement
    names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
    namesAreDistinct = Set(names).count == names.count
    namesReadAt = statement.recompileCount
  }

  /// At a bind: the run starts again.
  @inline(__always)
  func startRun() { isBeforeFirstRow = true }

  /// After a step that found a row: SQLite compiles a cached statement again (at a run's first
  /// step) when the schema changed, here or in another connection, and a `SELECT *` then has
  /// other columns, which are read again.
  @inline(__always)
  func steppedToARow() {
    guard isBeforeFirstRow else { return }
    isBeforeFirstRow = false
    if statement.recompileCount != namesReadAt { readNamesAgain() }
  }

  @inline(never)
  private func readNamesAgain() {
    names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
    namesAreDistinct = Set(names).count == names.count
    next = 0
    namesReadAt = statement.recompileCount
  }

  /// The value of column `index` (0-based).
  @inlinable
  func value(at index: Int) -> SQLValue { statement.value(at: index) }

  /// True when the column at `index` is NULL.
  func isNull(at index: Int) -> Bool { statement.isNull(at: index) }

  /// The index of the column named `name`: the same name first, then one that differs only
  /// in ASCII case; nil when there is none.
  @usableFromInline
  func index(of name: String) -> Int? {
    let guess = next
    if namesAreDistinct, guess < names.count, names[guess] == name {
      next = guess + 1 < names.count ? guess + 1 : 0
      return guess
    }
    return search(name)
  }

  /// The error of a column `name` the row does not have, read as a `type`.
  @usableFromInline
  func missingColumn(_ name: String, type: Any.Type) -> RowDecodingError {
    .missingColumn(column: name, type: Row.name(of: type), columns: names)
  }

  /// `index(of:)` past the guess (out of line, so that the guess costs a small call).
  @inline(never)
  private func search(_ name: String) -> Int? {
    guard let found = Row.index(of: name, in: names) else { return nil }
    next = found + 1 < names.count ? found + 1 : 0
    return found
  }
}
