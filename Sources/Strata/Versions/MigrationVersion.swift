/// A migration's version: the text its file or folder name gives, compared the way the folder's
/// own tool compares versions.
///
/// Tools disagree on what a version is. strata, dbmate, golang-migrate, goose, sql-migrate, sqlx
/// and iOS bundles read the leading digits as a number; diesel orders its folders by the version
/// text; Flyway splits `1.1` and `2_1` into numeric parts; a sql-migrate folder whose names are
/// not all `<digits>_<name>.sql` with distinct numbers is known by its file names, as sql-migrate
/// records them. A version keeps its text (what output
/// shows) and its tool's ordering, so a folder runs in the order its tool runs it.
///
/// Versions of one ordering compare among themselves as their tool compares them. Versions of
/// different orderings never come from one folder; between them, numeric versions come first,
/// then text, then dotted, then sql-migrate ids, so ``zero`` (the numeric 0 meaning "no migration applied") is below
/// every version.
public struct MigrationVersion: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// How a version compares with another of the same ordering.
  package enum Ordering: String, Sendable, Codable, CaseIterable {
    /// As a 64-bit number: `2` before `10` (strata, dbmate, golang-migrate, goose, sql-migrate,
    /// sqlx, iOS bundles).
    case numeric
    /// As text, character by character: `20200101` before `202001011` (diesel).
    case text
    /// As numbers separated by dots, missing trailing parts being zero: `1` equals `1.0`,
    /// `1.10` is after `1.9` (Flyway).
    case dotted
    /// As sql-migrate orders its file names (its ids): by the number a name starts with, then
    /// by the name as bytes; names without a leading number after every numbered one.
    case sqlMigrate = "sql-migrate"
  }

  /// The version as its tool writes it: `1`, `20240102030405`, `1.1` (Flyway's `2_1` reads
  /// `2.1`, as Flyway shows it).
  public let text: String
  /// How this version compares with others.
  package let ordering: Ordering
  /// What equality and order are decided on.
  private let key: Key

  private enum Key: Hashable, Sendable {
    case numeric(Int64)
    case text(String)
    /// Each part without leading zeros, trailing zero parts removed (Flyway's `1.0` is `1`).
    case dotted([String])
    /// The leading number (nil without one) and the whole file name.
    case sqlMigrate(Int64?, String)
  }

  /// The version no migration has: what a database with nothing applied is at.
  public static let zero = MigrationVersion(integer: 0)

  /// A numeric version (the leading digits of `0001_name.sql`).
  public init(integer: Int64) {
    text = String(integer)
    ordering = .numeric
    key = .numeric(integer)
  }

  /// A diesel version: the folder name up to its first `_`, with `-` removed, compared as text.
  ///
  /// Give the folder's version part (`2024-01-02-030405`); the dashes are dropped here.
  /// - Throws: ``MigrationVersionError/empty(_:)`` when nothing is left.
  package init(diesel folderVersion: String) throws {
    let text = folderVersion.filter { $0 != "-" }
    guard !text.isEmpty else { throw MigrationVersionError.empty(folderVersion) }
    self.text = text
    ordering = .text
    key = .text(text)
  }

  /// A Flyway version: `1`, `1.1`, `2_1` (`_` reads as `.`), `005`.
  ///
  /// Parts are compared as unsigned numbers of any size, and missing trailing parts count as
  /// zero, so `1` equals `1.0` and `1.10` is after `1.9`.
  /// - Throws: ``MigrationVersionError/notDotted(_:)`` when a part is empty or holds anything
  ///   but the digits 0-9, as Flyway refuses it.
  package init(flyway version: String) throws {
    let text = version.replacingOccurrences(of: "_", with: ".")
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard
      parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } })
    else { throw MigrationVersionError.notDotted(version) }
    var numbers = parts.map { part -> String in
      let trimmed = part.drop { $0 == "0" }
      return trimmed.isEmpty ? "0" : String(trimmed)
    }
    while numbers.count > 1, numbers.last == "0" { numbers.removeLast() }
    self.text = text
    ordering = .dotted
    key = .dotted(numbers)
  }

  /// A sql-migrate version: the migration's id, its file name (`01-consolidated.sql`);
  /// `.sql` is added when `id` lacks it, so `01-consolidated` names the same migration.
  ///
  /// Compared as sql-migrate's `Migration.Less` compares ids: by the leading number, then by
  /// the name as bytes; a name without a leading number comes after every numbered one.
  /// - Throws: ``MigrationVersionError/empty(_:)`` for an empty id;
  ///   ``MigrationVersionError/notNumeric(_:)`` when the leading number exceeds 64 bits (which
  ///   sql-migrate cannot read either).
  package init(sqlMigrate id: String) throws {
    guard !id.isEmpty, id != ".sql" else { throw MigrationVersionError.empty(id) }
    let text = id.hasSuffix(".sql") ? id : id + ".sql"
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    var number: Int64?
    if !digits.isEmpty {
      guard let parsed = Int64(digits) else { throw MigrationVersionError.notNumeric(id) }
      number = parsed
    }
    self.text = text
    ordering = .sqlMigrate
    key = .sqlMigrate(number, text)
  }

  /// The version stored as `text` with `ordering`, as read back from the history table.
  /// - Throws: ``MigrationVersionError`` when the text is not a version of that ordering.
  package init(text: String, ordering: Ordering) throws {
    switch ordering {
    case .numeric:
      guard let number = Int64(text), number >= 0 else {
        throw MigrationVersionError.notNumeric(text)
      }
      self.init(integer: number)
    case .text: try self.init(diesel: text)
    case .dotted: try self.init(flyway: text)
    case .sqlMigrate: try self.init(sqlMigrate: text)
    }
  }

  /// The number, for a numeric version; nil for the others.
  public var integerValue: Int64? {
    if case .numeric(let number) = key { return number }
    return nil
  }

  /// True for ``zero``.
  public var isZero: Bool { self == .zero }

  /// The version's text, as output shows it.
  public var description: String { text }

  /// Equal as the tool compares them: Flyway's `1` equals `1.0`.
  public static func == (lhs: MigrationVersion, rhs: MigrationVersion) -> Bool {
    // Two numbers, as most folders' versions are, without copying the keys.
    if case .numeric(let left) = lhs.key, case .numeric(let right) = rhs.key {
      return left == right
    }
    return lhs.key == rhs.key
  }

  /// Hashes what equality decides on, so `1` and `1.0` (Flyway) hash alike.
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }

  /// Before, as the tool orders versions (see `Ordering`).
  public static func < (lhs: MigrationVersion, rhs: MigrationVersion) -> Bool {
    if case .numeric(let left) = lhs.key, case .numeric(let right) = rhs.key { return left < right }
    switch (lhs.key, rhs.key) {
    case (.numeric(let left), .numeric(let right)): return left < right
    case (.text(let left), .text(let right)):
      return Array(left.utf8).lexicographicallyPrecedes(right.utf8)
    case (.dotted(let left), .dotted(let right)): return dottedPrecedes(left, right)
    case (.sqlMigrate(let leftNumber, let left), .sqlMigrate(let rightNumber, let right)):
      switch (leftNumber, rightNumber) {
      case (let a?, let b?) where a != b: return a < b
      case (.some, nil): return true
      case (nil, .some): return false
      default: return Array(left.utf8).lexicographicallyPrecedes(right.utf8)
      }
    default: return lhs.ordering.rank < rhs.ordering.rank
    }
  }

  /// Flyway's order: part by part as unsigned numbers, a missing part being zero. Parts carry
  /// no leading zeros, so a shorter part is a smaller number and equal lengths compare as text.
  private static func dottedPrecedes(_ left: [String], _ right: [String]) -> Bool {
    for index in 0..<max(left.count, right.count) {
      let a = index < left.count ? left[index] : "0"
      let b = index < right.count ? right[index] : "0"
      if a == b { continue }
      return a.count != b.count ? a.count < b.count : a < b
    }
    return false
  }

  /// A numeric version encodes as a JSON number (as versions always have); the others as their
  /// text.
  /// - Throws: `EncodingError` when the encoder refuses the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let number = integerValue {
      try container.encode(number)
    } else {
      try container.encode(text)
    }
  }

  /// A number decodes as a numeric version; a string of digits and dots (or `_`) as a dotted one,
  /// a string ending in `.sql` as a sql-migrate id, and any other string as a text version.
  /// - Throws: `DecodingError` when the value is neither a number nor a string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int64.self) {
      self.init(integer: number)
    } else {
      let text = try container.decode(String.self)
      if let dotted = try? MigrationVersion(flyway: text) {
        self = dotted
      } else if text.hasSuffix(".sql") {
        try self.init(sqlMigrate: text)
      } else {
        try self.init(diesel: text)
      }
    }
  }
}

extension MigrationVersion: ExpressibleByIntegerLiteral {
  /// A numeric version written as a number (`MigrateOptions(target: 3)`), as versions were
  /// written before they had a type.
  public init(integerLiteral value: Int64) {
    self.init(integer: value)
  }
}

extension MigrationVersion.Ordering {
  /// Where versions of this ordering stand among versions of another.
  fileprivate var rank: Int {
    switch self {
    case .numeric: 0
    case .text: 1
    case .dotted: 2
    case .sqlMigrate: 3
    }
  }
}

/// Why a text is not a migration version.
package enum MigrationVersionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The version text is empty.
  case empty(String)
  /// A numeric version holds something other than digits, or is too large for 64 bits.
  case notNumeric(String)
  /// A dotted (Flyway) version has an empty part or something other than digits.
  case notDotted(String)

  /// What is wrong with the text, in words.
  package var description: String {
    switch self {
    case .empty(let text): "\"\(text)\" is not a version: it is empty"
    case .notNumeric(let text):
      "\"\(text)\" is not a version: a version here is a whole number from 0 to \(Int64.max)"
    case .notDotted(let text):
      "\"\(text)\" is not a version: a version here is numbers separated by dots or "
        + "underscores (1, 1.1, 2_1)"
    }
  }
}
