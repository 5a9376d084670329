/// Two migrations whose versions are written with different widths (`9_a.sql`, `10_b.sql`;
/// `0010` and `9`), so that they run in one order, the versions' as numbers, but sort the other
/// way as text, as `ls`, an editor or a tool that sorts file names orders them. strata runs
/// them as numbers, as goose, golang-migrate, sql-migrate, sqlx and iOS bundles do; dbmate
/// sorts the names as text, so a dbmate-format folder with such a pair runs in another order
/// under dbmate.
package struct VersionWidthWarning: Hashable, Sendable, Codable {
  /// The file that runs first (its version is the smaller number).
  package let earlier: String
  /// The file that runs right after it, though its version sorts first as text.
  package let later: String
  /// The warning in words.
  package let message: String
}

extension MigrationSet {
  /// Each pair of consecutive migrations whose versions order one way as numbers and the other
  /// way as text (the versions as the file or folder names write them). Most formats run them
  /// as numbers (Flyway part by part), so the surprise is a name list sorted as text; diesel
  /// runs them as text, so there the surprise is the numbers. When there is none, the two
  /// orders agree throughout the folder.
  package var versionWidthWarnings: [VersionWidthWarning] {
    zip(migrations, migrations.dropFirst()).compactMap { first, second in
      switch format {
      case .diesel: textOrderWarning(first, second)
      case .flyway: numberOrderWarning(first, second, a: first.version.text, b: second.version.text)
      // dbmate sorts whole file names as bytes: `10_a.sql` before `1_z.sql` ('0' < '_'), though
      // the versions' digits alone, "1" and "10", sort as the numbers do.
      case .dbmate: numberOrderWarning(first, second, a: first.fileName, b: second.fileName)
      default:
        numberOrderWarning(
          first,
          second,
          a: Self.leadingDigits(first),
          b: Self.leadingDigits(second)
        )
      }
    }
  }

  private static func leadingDigits(_ migration: Migration) -> String {
    String(migration.fileName.prefix { $0.isASCII && $0.isNumber })
  }

  /// A folder run in the versions' numeric order (`a` runs before `b`) whose versions sort the
  /// other way as text.
  private func numberOrderWarning(
    _ first: Migration,
    _ second: Migration,
    a: String,
    b: String
  ) -> VersionWidthWarning? {
    // A sql-migrate name without a number (`seed.sql`) runs after the numbered ones, as its
    // tool runs it: no width is involved. For dbmate, `a` and `b` are whole file names.
    guard !b.isEmpty, Array(b.utf8).lexicographicallyPrecedes(Array(a.utf8)) else { return nil }
    let (shorter, longer) = (Self.leadingDigits(first), Self.leadingDigits(second))
    let advice =
      format == .flyway
      ? "Flyway compares each part of a version as a number, so write parts of one width (such "
        + "as 1.09 and 1.10) to make the two orders agree"
      : "padding them to one width, such as "
        + "\(String(repeating: "0", count: max(0, longer.count - shorter.count)) + shorter) and "
        + "\(longer), makes the two orders agree"
    return VersionWidthWarning(
      earlier: first.up.file,
      later: second.up.file,
      message: "\(first.up.file) (version \(first.version)) runs before \(second.up.file) "
        + "(version \(second.version)), but sorted as text '\(b)' comes before '\(a)': "
        + "versions of different widths order differently as numbers and as names (\(advice))"
    )
  }

  /// A diesel folder, run in the versions' text order, whose versions order the other way as
  /// numbers (`20240103` runs after `20240102030405`, though it is the smaller number).
  private func textOrderWarning(_ first: Migration, _ second: Migration) -> VersionWidthWarning? {
    let (a, b) = (first.version.text, second.version.text)
    guard a.allSatisfy(\.isASCII), b.allSatisfy(\.isASCII),
      a.allSatisfy(\.isNumber), b.allSatisfy(\.isNumber), b.count < a.count
    else { return nil }
    return VersionWidthWarning(
      earlier: first.up.file,
      later: second.up.file,
      message: "\(first.up.file) (version \(a)) runs before \(second.up.file) (version \(b)), "
        + "as diesel orders versions as text, though as numbers \(b) is the smaller: versions of "
        + "different widths order differently as numbers and as text (naming every folder with "
        + "diesel's full YYYY-MM-DD-HHMMSS stamp makes the two orders agree)"
    )
  }
}
