/// One way the live schema differs from what the migrations produce.
public struct SchemaDifference: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Which side has the object.
  package enum Change: String, Codable, Sendable {
    /// The migrations create it; the database does not have it.
    case missing
    /// The database has it; the migrations do not create it.
    case unexpected
    /// Both have it, differently.
    case changed
  }

  /// The kind of schema object that differs.
  package enum Object: String, Codable, Sendable {
    /// The kind of schema object that differs; its raw value is how messages name it.
    case table, column, index, foreignKey = "foreign key", check, trigger, view
  }

  /// Whether the object is missing, unexpected or changed.
  package let change: Change
  /// The kind of object: table, column, index, foreign key, check, trigger or view.
  package let object: Object
  /// `student`, `student.email`, `student_class`.
  public let name: String
  /// What differs, for a change ("type", "NOT NULL", "columns", "SQL").
  public let aspect: String?
  /// What the migrations produce.
  public let expected: String?
  /// What the database has.
  public let actual: String?

  /// Makes a difference; ``SchemaComparison`` makes them from two schemas.
  package init(
    change: Change,
    object: Object,
    name: String,
    aspect: String? = nil,
    expected: String? = nil,
    actual: String? = nil
  ) {
    self.change = change
    self.object = object
    self.name = name
    self.aspect = aspect
    self.expected = expected
    self.actual = actual
  }

  enum CodingKeys: String, CodingKey {
    case change, object, name, aspect, expected, actual, message
  }

  /// Writes every key, optional ones as `null`, and the description as `message`.
  ///
  /// - Throws: The encoder's `EncodingError`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(change, forKey: .change)
    try container.encode(object, forKey: .object)
    try container.encode(name, forKey: .name)
    try container.encode(aspect, forKey: .aspect)
    try container.encode(expected, forKey: .expected)
    try container.encode(actual, forKey: .actual)
    try container.encode(description, forKey: .message)
  }

  /// Reads the keys that ``encode(to:)`` writes; `message` is recomputed.
  ///
  /// - Throws: The decoder's `DecodingError` for a missing or mistyped key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    change = try container.decode(Change.self, forKey: .change)
    object = try container.decode(Object.self, forKey: .object)
    name = try container.decode(String.self, forKey: .name)
    aspect = try container.decodeIfPresent(String.self, forKey: .aspect)
    expected = try container.decodeIfPresent(String.self, forKey: .expected)
    actual = try container.decodeIfPresent(String.self, forKey: .actual)
  }

  /// "column student.nickname TEXT: in the database, not created by the migrations".
  public var description: String {
    let subject = "\(object.rawValue) \(name)"
    switch change {
    case .missing:
      return "\(subject)\(expected.map { " \($0)" } ?? ""): created by the migrations, "
        + "missing from the database"
    case .unexpected:
      return "\(subject)\(actual.map { " \($0)" } ?? ""): in the database, "
        + "not created by the migrations"
    case .changed:
      return "\(subject): \(aspect ?? "definition") is \(expected ?? "none") in the migrations, "
        + "\(actual ?? "none") in the database"
    }
  }
}
