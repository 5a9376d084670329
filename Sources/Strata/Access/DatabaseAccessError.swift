import Foundation

/// Using a `DatabaseQueue` or its `Database` went wrong before SQLite ran anything (or SQLite
/// refused on the queue's behalf): the database is as it was.
public enum DatabaseAccessError: StrataError, Equatable {
  /// A statement that writes ran inside `read { … }`; SQLite refused it and wrote nothing.
  case writeInsideRead(sql: String)
  /// `read` or `write` was called from inside a `read` or `write` closure of the same queue,
  /// which would wait for itself forever.
  case nestedAccess(path: String)
  /// The queue was closed by `close()`.
  case closed(path: String)
  /// Another connection held the database's lock for longer than the busy timeout.
  case locked(path: String, timeout: Int, SQLiteError)
  /// The statement has a different number of parameters than the arguments given.
  case argumentCount(sql: String, expected: Int, given: Int)
  /// A named parameter (`:name`, `@name`, `$name`) has no argument of that name.
  case missingArgument(sql: String, parameter: String)
  /// A named argument matches no parameter of the statement.
  case unknownArgument(sql: String, name: String)
  /// Arguments in order were given to a statement whose parameters have names, or named ones
  /// to a statement with `?` parameters.
  case argumentStyle(sql: String, parameter: String, named: Bool)
  /// Arguments were given with SQL of more than one statement (only a single statement takes
  /// arguments).
  case argumentsForScript(sql: String)
  /// A statement of a script has parameters but no arguments were given (they would all be
  /// `NULL`); the script's statements before it were undone.
  case parametersInScript(sql: String)
  /// The statement would take over what the queue owns: its transaction (`BEGIN`, `COMMIT`,
  /// `ROLLBACK`) or its connection's rules (`PRAGMA query_only`, `foreign_keys`); it did not run.
  case ownedByQueue(sql: String, reason: String)
  /// A `Database` was used after the `read` or `write` closure that received it returned.
  case outsideAccess(path: String)
  /// The queue is suspended (`DatabaseQueue.suspend()`, as the app goes to the background):
  /// the access was refused before it touched the file, or `suspend()` stopped it while it ran
  /// (a write rolled back). Nothing was written.
  case suspended(path: String)
  /// `write` was called on a queue opened by `DatabaseQueue.readOnly(url:)` (an extension's),
  /// which never writes; the file was not touched.
  case readOnlyQueue(path: String)
  /// A property of the Swift value has no column of its name in the table (writes from Swift
  /// values: `Database.insert(_:into:)` and the like); nothing was written.
  case propertyWithoutColumn(type: String, table: String, property: String, columns: [String])
  /// The table has a column the write needs a value for and the Swift type has no property
  /// for it: a NOT NULL column without a default (an insert), or a column of the key (an
  /// update, an upsert); nothing was written.
  case columnWithoutProperty(type: String, table: String, column: String, isKey: Bool)
  /// A property's value cannot be stored in its column: an integer beyond 64 bits, NaN, nil in
  /// a NOT NULL column, text in a STRICT table's INTEGER column; nothing was written.
  case valueDoesNotFit(type: String, table: String, property: String, reason: String)
  /// A property's type is nested (a struct, an array, a dictionary, an enum with associated
  /// values): refused rather than stored in an encoding chosen silently; nothing was written.
  case nestedValue(type: String, table: String, property: String, valueType: String)
  /// The value encodes one value or a list, not properties: it is not a row.
  case notARow(type: String, table: String)
  /// The database has no table of that name (views and temporary tables are not written
  /// this way); nothing was run.
  case noSuchTable(type: String, table: String)
  /// The key given is not a key of the table (its primary key, the columns of a UNIQUE index,
  /// or the rowid of a table without a primary key); nothing was run.
  case notAKey(table: String, given: String, keys: [[String]])
  /// An update found no row with the value's key; nothing was written.
  case noRowForKey(type: String, table: String, key: String)

  /// What went wrong, with the statement, and that nothing was written.
  public var message: String {
    switch self {
    case .writeInsideRead(let sql):
      "a statement that writes ran inside a read (`\(Self.shown(sql))`); nothing was written"
    case .nestedAccess(let path):
      "the database \(path) was used from inside one of its own read or write closures, "
        + "which would wait for itself; nothing was run"
    case .closed(let path):
      "the database \(path) was closed; nothing was run"
    case .locked(let path, let timeout, let error):
      "the database \(path) is locked by another connection (in this app or another process), "
        + "which held its lock for longer than the busy timeout (\(timeout) ms): "
        + "\(error.message) (SQLite error \(error.extendedCode)); nothing was written"
    case .argumentCount(let sql, let expected, let given):
      "`\(Self.shown(sql))` has \(expected) parameter\(expected == 1 ? "" : "s") but "
        + "\(given) argument\(given == 1 ? " was" : "s were") given; nothing was run"
    case .missingArgument(let sql, let parameter):
      "`\(Self.shown(sql))` has the parameter \(parameter) but no argument of that name was "
        + "given; nothing was run"
    case .unknownArgument(let sql, let name):
      "the argument '\(name)' matches no parameter of `\(Self.shown(sql))`; nothing was run"
    case .argumentStyle(let sql, let parameter, let named):
      named
        ? "named arguments were given but `\(Self.shown(sql))` has the parameter \(parameter) "
          + "in order (`?`); nothing was run"
        : "arguments in order were given but `\(Self.shown(sql))` has the named parameter "
          + "\(parameter); nothing was run"
    case .argumentsForScript(let sql):
      "arguments were given with more than one statement (`\(Self.shown(sql))`); "
        + "nothing was run"
    case .parametersInScript(let sql):
      "a statement of the script `\(Self.shown(sql))` has parameters but no arguments were "
        + "given; the script was undone"
    case .ownedByQueue(let sql, let reason):
      "`\(Self.shown(sql))` was refused: \(reason); nothing was run"
    case .outsideAccess(let path):
      "the database \(path) was used outside the read or write closure that received it; "
        + "nothing was run"
    case .suspended(let path):
      "the database \(path) is suspended (DatabaseQueue.suspend(), so that the app holds no "
        + "lock on it in the background): the access was refused, or stopped while it ran; "
        + "nothing was written (a write that was running was rolled back)"
    case .readOnlyQueue(let path):
      "the database \(path) was opened read-only (DatabaseQueue.readOnly(url:)), which never "
        + "writes; the write did not run and nothing was written"
    case .propertyWithoutColumn(let type, let table, let property, let columns):
      "\(type)'s property \"\(property)\" has no column in table \"\(table)\" (its columns: "
        + "\(columns.joined(separator: ", "))); nothing was written"
    case .columnWithoutProperty(let type, let table, let column, isKey: false):
      "\(type) has no property for column \"\(column)\" of table \"\(table)\", which is NOT "
        + "NULL without a default; nothing was written"
    case .columnWithoutProperty(let type, let table, let column, isKey: true):
      "\(type) has no property for the key column \"\(column)\" of table \"\(table)\", which "
        + "the write needs to find the row; nothing was written"
    case .valueDoesNotFit(let type, let table, let property, let reason):
      "\(type)'s property \"\(property)\" cannot be stored in table \"\(table)\": \(reason); "
        + "nothing was written"
    case .nestedValue(let type, let table, let property, let valueType):
      "\(type)'s property \"\(property)\" is \(valueType), a nested type, which table "
        + "\"\(table)\" cannot hold in one column; nothing was written"
    case .notARow(let type, let table):
      "\(type) is not a row of table \"\(table)\": it encodes one value or a list, not "
        + "properties; nothing was written"
    case .noSuchTable(let type, let table):
      "the database has no table \"\(table)\" for \(type) (views and temporary tables are not "
        + "written this way); nothing was run"
    case .notAKey(let table, let given, let keys):
      "the key given (\(given)) is not a key of table \"\(table)\", "
        + (keys.isEmpty
          ? "which has none (no primary key, no UNIQUE index, no rowid)"
          : "whose keys are "
            + keys.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ", "))
        + "; nothing was run"
    case .noRowForKey(let type, let table, let key):
      "no row of table \"\(table)\" has the key of the \(type) to update (\(key)); "
        + "nothing was written"
    }
  }

  /// What to do.
  public var help: String {
    switch self {
    case .writeInsideRead:
      "Run statements that change the database inside write { … }, which also wraps them in "
        + "a transaction."
    case .nestedAccess:
      "Use the `db` the outer closure received instead of calling read or write again."
    case .closed:
      "Open the database again (a new DatabaseQueue) before using it."
    case .locked:
      "Try again when the other connection has finished its transaction, keep transactions "
        + "short, or open the queue with a larger busy timeout."
    case .argumentCount, .missingArgument, .unknownArgument:
      "Give one argument for each parameter of the statement."
    case .argumentsForScript, .parametersInScript:
      "Run each statement that takes arguments in its own execute call."
    case .ownedByQueue:
      "Leave transactions to write { … } (a thrown error rolls it back; a SAVEPOINT nests one) "
        + "and the connection's settings to the queue."
    case .outsideAccess:
      "Use the db a closure receives only inside that closure; call read or write again later."
    case .suspended:
      "Call resume() when the app returns to the foreground, then try the access again."
    case .readOnlyQueue:
      "Write through the app's own queue (DatabaseSetup.open()); a read-only queue, such as an "
        + "extension's, only reads."
    case .propertyWithoutColumn:
      "Add the column in a migration, give the property the column's name (CodingKeys), or "
        + "leave the property out of CodingKeys."
    case .columnWithoutProperty(_, _, _, isKey: false):
      "Add a property for the column (CodingKeys may rename it), or give the column a DEFAULT "
        + "in a migration."
    case .columnWithoutProperty(_, _, _, isKey: true):
      "Add a property for each column of the key, or name another key: the columns of a "
        + "UNIQUE index the type has properties for."
    case .valueDoesNotFit:
      "Give the property a value the column takes (a type of SQLValueConvertible's table), or "
        + "change the column in a migration."
    case .nestedValue:
      "Store its properties in columns of their own, or make its type SQLValueConvertible to "
        + "choose how it is stored (JSON text, a blob); it then reads back the same way."
    case .notARow:
      "Write a struct or class whose properties are the table's columns."
    case .noSuchTable:
      "Check the table's name (a migration creates it); write a view or a temporary table with "
        + "execute."
    case .notAKey:
      "Give the primary key's values in order, or values by name for the columns of the "
        + "primary key or of a UNIQUE index."
    case .noRowForKey:
      "Insert the row first, or use upsert, which inserts it when no row has its key."
    case .argumentStyle(_, _, let named):
      named
        ? "Pass the arguments as an array, in the order of the statement's parameters."
        : "Pass the arguments as a dictionary keyed by the parameters' names (without :, @ or $)."
    }
  }

  /// A statement on one line, at most 120 characters.
  static func shown(_ sql: String) -> String {
    let line = sql.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    return line.count > 120 ? String(line.prefix(120)) + "…" : line
  }
}

/// A row could not be read into a Swift type: a column missing, or holding a value the type
/// cannot take.
public enum RowDecodingError: StrataError, Equatable {
  /// The row has no column of that name (the property is not optional).
  case missingColumn(column: String, type: String, columns: [String])
  /// The column holds a value that is not the Swift type (`NULL` into a type that is not
  /// optional, text into a number, an integer out of range).
  case mismatch(column: String, type: String, value: SQLValue)
  /// A column read as JSON (a nested type) does not hold that type's JSON.
  case invalidJSON(column: String, type: String, reason: String)

  /// Which column, which Swift type, and what SQLite holds.
  public var message: String {
    switch self {
    case .missingColumn(let column, let type, let columns):
      "the row has no column \"\(column)\" for \(Self.article(type)) \(type) (its columns: "
        + "\(columns.isEmpty ? "none" : columns.joined(separator: ", ")))"
    case .mismatch(let column, let type, .null):
      "column \"\(column)\" holds NULL, which is not \(Self.article(type)) \(type) (the Swift "
        + "type is not optional)"
    case .mismatch(let column, let type, let value):
      "column \"\(column)\" holds \(value.described), which is not \(Self.article(type)) \(type)"
    case .invalidJSON(let column, let type, let reason):
      "column \"\(column)\" does not hold the JSON of \(Self.article(type)) \(type): \(reason)"
    }
  }

  /// What to do.
  public var help: String {
    switch self {
    case .missingColumn:
      "Select a column with the property's name (or an alias: SELECT x AS name), or make the "
        + "property optional."
    case .mismatch(_, _, .null):
      "Make the property optional, or keep NULL out of the column (NOT NULL)."
    case .mismatch, .invalidJSON:
      "Change the property's type to match the column, or convert the value in the query "
        + "(CAST, or an alias of an expression)."
    }
  }

  /// "an Int", "an Optional<Int>", but "a UUID", "a URL", "a UInt8", "a Unit".
  private static func article(_ type: String) -> String {
    guard let first = type.first else { return "a" }
    if "AEIOaeio".contains(first) { return "an" }
    guard first == "U" || first == "u" else { return "a" }
    let rest = type.dropFirst()
    let soundsLikeYou =
      rest.first.map { $0.isUppercase } ?? true || rest.hasPrefix("ni") || rest.hasPrefix("s")
    return soundsLikeYou ? "a" : "an"
  }
}
