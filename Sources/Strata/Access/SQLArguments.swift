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
  @usableFromInline
  enum Storage: Sendable, Hashable {
    /// One, two or three values in order, kept inline: a short literal (`[id]`) allocates
    /// no array, and the caller's array of existentials can live on its stack.
    case one(SQLValue)
    case two(SQLValue, SQLValue)
    case three(SQLValue, SQLValue, SQLValue)
    case positional([SQLValue])
    case named([String: SQLValue])
  }

  @usableFromInline
  var storage: Storage

  @inlinable
  init(storage: Storage) { self.storage = storage }

  /// Values in the order of the statement's parameters.
  public init(_ values: [SQLValue]) { storage = .positional(values) }

  /// Values by parameter name, without the `:`, `@` or `$` (one given with it also matches).
  public init(named values: [String: SQLValue]) { storage = .named(values) }

  /// True when no value is given.
  public var isEmpty: Bool {
    switch storage {
    case .one, .two, .three: false
    case .positional(let values): values.isEmpty
    case .named(let values): values.isEmpty
    }
  }

  /// The number of values given in order; nil for values by name.
  var positionalCount: Int? {
    switch storage {
    case .one: 1
    case .two: 2
    case .three: 3
    case .positional(let values): values.count
    case .named: nil
    }
  }

  /// Calls `body` with each value given in order and its 1-based parameter index.
  func forEachPositional(_ body: (SQLValue, Int) throws -> Void) rethrows {
    switch storage {
    case .one(let a): try body(a, 1)
    case .two(let a, let b):
      try body(a, 1)
      try body(b, 2)
    case .three(let a, let b, let c):
      try body(a, 1)
      try body(b, 2)
      try body(c, 3)
    case .positional(let values):
      for (offset, value) in values.enumerated() { try body(value, offset + 1) }
    case .named: break
    }
  }

  /// The storage as before the inline cases: values in order as one array, so that `[1]` and
  /// `SQLArguments([.integer(1)])` are equal and hash alike.
  private var canonical: Storage {
    switch storage {
    case .one(let a): .positional([a])
    case .two(let a, let b): .positional([a, b])
    case .three(let a, let b, let c): .positional([a, b, c])
    case .positional, .named: storage
    }
  }

  /// Equal when the same values are given the same way.
  public static func == (lhs: SQLArguments, rhs: SQLArguments) -> Bool {
    lhs.canonical == rhs.canonical
  }

  /// Hashes the values and the way they are given.
  public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }
}

extension SQLArguments: ExpressibleByArrayLiteral {
  /// Values in order; nil is `NULL`.
  // Inlinable: in the caller's module each value converts without a dynamic call. A short
  // literal is read in one pass (not by index) and each value consumed, not copied: the
  // compiler then drops the literal's array of existentials instead of building and
  // releasing it.
  @inlinable @inline(__always)
  public init(arrayLiteral elements: (any SQLValueConvertible)?...) {
    switch elements.count {
    case 1:
      // The usual read by key, without slots for a second and third value.
      var value = SQLValue.null
      for element in elements {
        switch consume element {
        case .some(let convertible): value = convertible.sqlValue
        case .none: value = .null
        }
      }
      self.init(storage: .one(value))
    case 2, 3:
      var values: (SQLValue, SQLValue, SQLValue) = (.null, .null, .null)
      var index = 0
      for element in elements {
        let value: SQLValue
        switch consume element {
        case .some(let convertible): value = convertible.sqlValue
        case .none: value = .null
        }
        switch index {
        case 0: values.0 = value
        case 1: values.1 = value
        default: values.2 = value
        }
        index += 1
      }
      self.init(
        storage: index == 2
          ? .two(values.0, values.1) : .three(values.0, values.1, values.2)
      )
    default:
      self.init(storage: .positional(elements.map { $0?.sqlValue ?? .null }))
    }
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
  /// - Parameter parameterCount: the statement's number of parameters (read once by the
  ///   statement cache).
  /// - Parameter isPositional: every parameter is known to be a plain `?` (the statement
  ///   cache checks it once), so that only the count is checked here.
  /// - Throws: `DatabaseAccessError` for a count or a name that does not match, a style that
  ///   does not match the parameters'; `SQLiteError` when SQLite refuses a value (too big).
  @inline(__always)
  func bind(_ arguments: SQLArguments, parameterCount count: Int, isPositional: Bool) throws {
    // The usual read by key: one `?` and one value.
    if isPositional, count == 1, case .one(let value) = arguments.storage {
      try bind(value, at: 1)
      return
    }
    try bindChecking(arguments, count: count, isPositional: isPositional)
  }

  /// `bind(_:parameterCount:isPositional:)` of anything but one value to one `?`.
  private func bindChecking(_ arguments: SQLArguments, count: Int, isPositional: Bool) throws {
    if case .named(let values) = arguments.storage {
      try bind(named: values, count: count)
      return
    }
    for index in 0..<count where !isPositional {
      if let name = parameterName(at: index + 1), name.first != "?" {
        throw DatabaseAccessError.argumentStyle(sql: sql, parameter: name, named: false)
      }
    }
    let given = arguments.positionalCount ?? 0
    guard given == count else {
      throw DatabaseAccessError.argumentCount(sql: sql, expected: count, given: given)
    }
    try arguments.forEachPositional { value, index in try bind(value, at: index) }
  }

  private func bind(named values: [String: SQLValue], count: Int) throws {
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
