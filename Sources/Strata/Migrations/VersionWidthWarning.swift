/// Two migrations whose versions are written with different widths (`9_a.sql`, `10_b.sql`;
/// `0010` and `9`), so that they run in one order, the versions' as numbers, but sort the other
/// way as text, as `ls`, an editor or a tool that sorts file names orders them. Not an error:
/// strata runs them as numbers, as the folder's tool does, but a reader of the folder may
/// expect the other order.
public struct VersionWidthWarning: Hashable, Sendable, Codable {
  /// The file that runs first (its version is the smaller number).
  public let earlier: String
  /// The file that runs right after it, though its version sorts first as text.
  public let later: String
  /// The warning in words.
  public let message: String
}

extension MigrationSet {
  /// Each pair of consecutive migrations whose versions order one way as numbers and the other
  /// way as text (the digits as the file names write them). When there is none, the two orders
  /// agree throughout the folder.
  public var versionWidthWarnings: [VersionWidthWarning] {
    func digits(_ migration: Migration) -> Substring {
      migration.fileName.prefix { $0.isASCII && $0.isNumber }
    }
    return zip(migrations, migrations.dropFirst()).compactMap { first, second in
      let (a, b) = (digits(first), digits(second))
      guard !b.isEmpty, Array(b.utf8).lexicographicallyPrecedes(Array(a.utf8)) else {
        return nil
      }
      let padded = String(repeating: "0", count: max(0, b.count - a.count)) + a
      return VersionWidthWarning(
        earlier: first.up.file,
        later: second.up.file,
        message: "\(first.up.file) (version \(first.version)) runs before \(second.up.file) "
          + "(version \(second.version)), but sorted as text '\(b)' comes before '\(a)': "
          + "versions of different widths order differently as numbers and as names (padding "
          + "them to one width, such as \(padded) and \(b), makes the two orders agree)"
      )
    }
  }
}
