import Foundation

/// The values a statement's parameters take: in order for `?` parameters, by name for
/// `:name`, `@name` and `$name` ones.
///
/// ```swift
/// let age: Int? = nil
/// try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", age])
/// try db.execute("UPDATE student SET age = :age WHERE stuID = :id", ["id": "S1", "age": 22])
/// ```
///
/// Each value is an `SQLValueConvertible` (see its table of conversions) or nil for `NULL`.
/// A count that does not match, a parameter without an argument or an argument without a
/// parameter is a `DatabaseAccessError`, before anything runs.
public struct SQLArguments: Sendable, Hashable {
  /// How the values are given.
  enum Storage: Sendable, Hashable {
    case positional([SQLValue])
    case named([String: SQLValue])
  }

  var storage: Storage

  /// Values in the order of the statement's parameters.
  public init(_ values: [SQLValue]) { storage = .positional(values) }

  /// Values by parameter name, without the `:`, `@` or `$` (one given with it also matches).
  public init(named values: [String: SQLValue]) { storage = .named(values) }

  /// True when no value is given.
  public var isEmpty: Bool {
    switch storage {
    case .positional(let values): values.isEmpty
    case .named(let values): values.isEmpty
    }
  }
}

extension SQLArguments: ExpressibleByArrayLiteral {
  /// Values in order; nil is `NULL`.
  public init(arrayLiteral elements: (any SQLValueConvertible)?...) {
    storage = .positional(elements.map { $0?.sqlValue ?? .null })
  }
}

extension SQLArguments: ExpressibleByDictionaryLiteral {
  /// Values by name; nil is `NULL`. A name given twice keeps its last value.
  public init(dictionaryLiteral elements: (String, (any SQLValueConvertible)?)...) {
    var values: [String: SQLValue] = [:]
    for (name, value) in elements { values[name] = value?.sqlValue ?? .null }
    storage = .named(values)
  }
}

extension Statement {
  /// Binds `arguments` to this statement's parameters, after checking that each parameter has
  /// exactly one argument.
  ///
  /// - Throws: `DatabaseAccessError` for a count or a name that does not match, a style that
  ///   does not match the parameters'; `SQLiteError` when SQLite refuses a value (too big).
  /// `isPositional` says that every parameter is known to be a plain `?` (the statement
  /// cache checks it once), so that only the count is checked here.
  func bind(_ arguments: SQLArguments, isPositional: Bool = false) throws {
    let count = parameterCount
    switch arguments.storage {
    case .positional(let values):
      for index in 0..<count where !isPositional {
        if let name = parameterName(at: index + 1), name.first != "?" {
          throw DatabaseAccessError.argumentStyle(sql: sql, parameter: name, named: false)
        }
      }
      guard values.count == count else {
        throw DatabaseAccessError.argumentCount(sql: sql, expected: count, given: values.count)
      }
      for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    case .named(let values):
      var used = Set<String>()
      for index in 0..<count {
        guard let name = parameterName(at: index + 1), name.first != "?" else {
          throw DatabaseAccessError.argumentStyle(sql: sql, parameter: "?", named: true)
        }
        let bare = String(name.dropFirst())
        guard let value = values[bare] ?? values[name] else {
          throw DatabaseAccessError.missingArgument(sql: sql, parameter: name)
        }
        used.insert(values[bare] != nil ? bare : name)
        try bind(value, at: index + 1)
      }
      if let unknown = values.keys.sorted().first(where: { !used.contains($0) }) {
        throw DatabaseAccessError.unknownArgument(sql: sql, name: unknown)
      }
    }
  }
}
