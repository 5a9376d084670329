import Strata
import StrataArguments

/// `--to V` and `baseline --version V`: a version is read in the migrations folder's format
/// (Flyway's `1.1`, diesel's timestamps, a number elsewhere), so it is parsed once the folder
/// is known.
enum VersionOption {
  /// An option taking a version, read by ``parse(_:name:in:allowsZero:)``.
  static func declare(_ name: String, help: String) -> Option<String?> {
    Option<String?>(name, "version", help: help, default: nil) { $0 }
  }

  /// The version `text` names in `migrations`' format; `0` is the empty database in every
  /// format when `allowsZero`.
  ///
  /// - Throws: `UsageError` naming `--name` when `text` is not a version of that format.
  static func parse(
    _ text: String?,
    name: String,
    in migrations: MigrationSet,
    allowsZero: Bool
  ) throws -> MigrationVersion? {
    guard let text else { return nil }
    let minimum = allowsZero ? 0 : 1
    if migrations.versionOrdering == .numeric {
      guard let number = Int64(text), number >= minimum else {
        throw UsageError(
          message: "--\(name) takes a whole number of at least \(minimum); got "
            + quotedArgument(text)
        )
      }
      return MigrationVersion(integer: number)
    }
    if allowsZero, text == "0" { return .zero }
    do {
      return try migrations.version(text)
    } catch let error as MigrationVersionError {
      throw UsageError(
        message: "--\(name) takes a version as \(migrations.format.rawValue) writes it: "
          + "\(error.description)"
      )
    }
  }
}
