import Strata

/// A dbmate-format folder whose versions have different widths (`9_a.sql`, `10_b.sql`) runs in
/// one order under strata, which compares versions as numbers, and in the other under dbmate,
/// which sorts them as text. Which one the team means cannot be read from the files, so a
/// command that applies or reverts migrations refuses such a folder until it is zero-padded or
/// its format is named (`--migration-format strata` runs the numbers' order, as the library
/// always does, with a warning; docs/decisions.md). dbmate compares whole file names, so
/// `10_a.sql` sorts before `1_z.sql` too (`MigrationSet.versionWidthWarnings`).
enum MigrationOrderCheck {
  /// Throws when the folder's format was detected as dbmate and two of its migrations order
  /// one way as numbers and the other as dbmate's file names; when the format was named, says
  /// on standard error which file dbmate itself would run first, and goes on.
  static func refuseDisagreeingOrder(
    _ migrations: MigrationSet,
    formatNamed: Bool,
    _ context: CommandContext
  ) throws {
    guard migrations.format == .dbmate, let first = migrations.versionWidthWarnings.first else {
      return
    }
    guard !formatNamed else {
      context.printError(
        "Warning: \(first.earlier) runs before \(first.later) as numbers, as strata runs "
          + "them; dbmate itself sorts the names and would run \(first.later) first."
      )
      return
    }
    throw DisagreeingOrderError(
      earlier: first.earlier,
      later: first.later,
      pairs: migrations.versionWidthWarnings.count
    )
  }

  /// What `validate` adds to a width warning of a dbmate folder whose format was detected.
  static let refusalNote =
    " (dbmate sorts names, so migrate, rollback, init and template refuse this folder until "
    + "it is zero-padded or --migration-format strata is given)"
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
      + "\(Self.padded(earlier, like: later))) so both tools run one order: strata's history "
      + "is unchanged (the version is still the number), but a database dbmate migrated "
      + "records the version as written, so change its schema_migrations row to match or "
      + "dbmate runs the file again; or pass --migration-format strata to run them in number "
      + "order, as strata always has (dbmate itself would still run \(Self.name(later)) first)."
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
