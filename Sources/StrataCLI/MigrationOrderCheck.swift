import Strata

/// A dbmate-format folder whose versions have different widths (`9_a.sql`, `10_b.sql`) runs in
/// one order under strata, which compares versions as numbers, and in the other under dbmate,
/// which sorts them as text. Which one the team means cannot be read from the files, so a
/// command that applies or reverts migrations refuses such a folder until it is zero-padded or
/// its format is named (`--migration-format strata` runs the numbers' order, as the library
/// always does; docs/decisions.md).
enum MigrationOrderCheck {
  /// Throws when the folder's format was detected as dbmate and two of its migrations order
  /// one way as numbers and the other as text.
  static func refuseDisagreeingOrder(_ migrations: MigrationSet, formatNamed: Bool) throws {
    guard !formatNamed, migrations.format == .dbmate,
      let first = migrations.versionWidthWarnings.first
    else { return }
    throw DisagreeingOrderError(
      earlier: first.earlier,
      later: first.later,
      pairs: migrations.versionWidthWarnings.count
    )
  }
}

/// Two migrations that strata and dbmate would run in opposite orders.
struct DisagreeingOrderError: StrataError {
  /// The file strata runs first (the smaller number).
  let earlier: String
  /// The file dbmate runs first (the name that sorts first).
  let later: String
  /// How many neighbouring pairs disagree.
  let pairs: Int

  var message: String {
    let others = pairs > 1 ? " (and \(pairs - 1) more such pair\(pairs > 2 ? "s" : ""))" : ""
    return "\(earlier) and \(later) run in opposite orders under strata and dbmate: strata "
      + "compares versions as numbers and runs \(earlier) first, dbmate sorts the names as text "
      + "and runs \(later) first\(others); nothing was run and the database is unchanged"
  }

  var help: String {
    "Zero-pad the versions to one width (rename \(Self.name(earlier)) to "
      + "\(Self.padded(earlier, like: later))) so both tools run one order; or pass "
      + "--migration-format strata to run them in number order, as strata always has (dbmate "
      + "itself would still run \(Self.name(later)) first)."
  }

  private static func name(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// `earlier`'s name with its version padded with zeros to `later`'s width.
  private static func padded(_ earlier: String, like later: String) -> String {
    let short = name(earlier)
    let width = name(later).prefix { $0.isASCII && $0.isNumber }.count
    let digits = short.prefix { $0.isASCII && $0.isNumber }.count
    return String(repeating: "0", count: max(0, width - digits)) + short
  }
}
