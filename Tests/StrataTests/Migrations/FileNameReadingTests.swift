import Testing

@testable import Strata

/// An ASCII file name is read from its bytes (`MigrationFileNames.swift`); these names must read
/// exactly as the character-by-character reading, kept here as it was, reads them.
@Suite struct FileNameReadingTests {
  /// `MigrationParser.parseFileName` as it read every name before.
  private static func byCharacters(_ fileName: String) -> MigrationParser.FileName? {
    guard fileName.lowercased().hasSuffix(".sql") else { return nil }
    var stem = String(fileName.dropLast(4))
    var part = MigrationParser.FileName.Part.whole
    if stem.lowercased().hasSuffix(".up") {
      part = .up
      stem = String(stem.dropLast(3))
    } else if stem.lowercased().hasSuffix(".down") {
      part = .down
      stem = String(stem.dropLast(5))
    }
    let digits = stem.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let version = Int64(digits) else { return nil }
    let rest = stem.dropFirst(digits.count)
    guard rest.first == "_", rest.count > 1 else { return nil }
    return MigrationParser.FileName(version: version, name: String(rest.dropFirst()), part: part)
  }

  /// `MigrationParser.bareVersion` as it read every name before.
  private static func bareByCharacters(_ name: String) -> MigrationParser.FileName? {
    let stem = name.dropLast(4)
    guard !stem.isEmpty, stem.allSatisfy({ $0.isASCII && $0.isNumber }),
      let version = Int64(stem)
    else { return nil }
    return MigrationParser.FileName(version: version, name: "", part: .whole)
  }

  static let names = [
    "0001_create.sql", "1_a.SQL", "1_a.Sql", "0001_users.up.sql", "0001_users.UP.SQL",
    "0001_users.down.sql", "2_b.DoWn.sql", "1_.sql", "1__a.sql", "1_.up.sql", "_a.sql",
    "a_1.sql", "1a_b.sql", "1-a.sql", "1 a.sql", "1_a b.sql", "1_a.sql.sql", "1_a.up.down.sql",
    "1_a.down.up.sql", ".up.sql", "1.up.sql", "1.sql", "0001.SQL", "12345678901234567890_a.sql",
    "9223372036854775807_max.sql", "9223372036854775808_over.sql", "9223372036854775807.sql",
    "00000000000000000000000000001_a.sql", "sql", ".sql", "a.sql", "1_a.sq", "1_a.sqlx",
    "1_a\r\n.sql", "1\r\n_a.sql", "1_a.txt", "1_a", "", "1", "1_a.s\tql",
    // Not ASCII: read by characters, as before.
    "1_é.sql", "1_a.ſql", "١_a.sql", "1\u{301}_a.sql", "1_\u{301}.sql", "1_a.up\u{301}.sql",
    "1_a.SQ\u{212A}.sql", "1_İ.sql",
  ]

  @Test func namesReadAsByCharacters() {
    for name in Self.names {
      #expect(MigrationParser.parseFileName(name) == Self.byCharacters(name), "\(name)")
      #expect(MigrationParser.bareVersion(name) == Self.bareByCharacters(name), "\(name)")
      #expect(MigrationParser.isSQLName(name) == name.lowercased().hasSuffix(".sql"), "\(name)")
    }
  }

  /// ASCII names are sorted by their bytes, which must be the order `sorted()` gives: names that
  /// differ only past their first 16 bytes, prefixes of each other, upper and lower case.
  @Test func namesSortAsStrings() {
    let ascii =
      Self.names.filter { $0.allSatisfy(\.isASCII) } + [
        "20240101000000_create_users_a.sql", "20240101000000_create_users_b.sql",
        "20240101000000_create_users.sql", "20240101000000_create_users", "2024010100000",
        "A_1.sql", "a_1.sql", "Z.sql", "~.sql", "0", "00", "000_",
      ]
    var generator = SystemRandomNumberGenerator()
    for names in [ascii, Self.names] {
      let shuffled = names.shuffled(using: &generator)
      #expect(MigrationParser.sortedNames(shuffled) == names.sorted())
    }
  }
}
