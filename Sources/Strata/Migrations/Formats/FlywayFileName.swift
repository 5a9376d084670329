/// What a Flyway migration file's name says, read as Flyway's ResourceNameParser reads it:
/// a suffix (`.sql`, compared ignoring case), a prefix (`V`, `U` or `R`, the longest that
/// matches first), then the version up to the first separator (`__`) and the description after
/// it. A versioned or undo name must have a version (`1`, `1.1`, `2_1`: digits split by `.` or
/// `_`, as Flyway's MigrationVersion takes them); a repeatable one must not.
struct FlywayFileName: Equatable, Sendable {
  enum Kind: Equatable, Sendable { case versioned, undo, repeatable }

  let kind: Kind
  /// The version as written (`2_1`); empty for a repeatable migration.
  let version: String
  /// The description as written, underscores and all (`add_users`).
  let description: String

  /// The events of Flyway's SQL callbacks (`afterMigrate.sql`, `beforeEachMigrate__x.sql`),
  /// from Flyway's `Event`: scripts Flyway runs around migrations, which strata does not run.
  static let callbackEvents: Set<String> = [
    "beforeClean", "afterClean", "afterCleanError", "beforeMigrate", "beforeEachMigrate",
    "beforeEachMigrateStatement", "afterEachMigrateStatement", "afterEachMigrateStatementError",
    "afterEachMigrate", "afterEachMigrateError", "beforeRepeatables", "afterVersioned",
    "afterMigrateApplied", "afterMigrate", "afterMigrateError", "beforeUndo", "beforeEachUndo",
    "beforeEachUndoStatement", "afterEachUndoStatement", "afterEachUndoStatementError",
    "afterEachUndo", "afterEachUndoError", "afterUndo", "afterUndoError", "beforeValidate",
    "afterValidate", "afterValidateError", "beforeBaseline", "afterBaseline",
    "afterBaselineError", "beforeRepair", "afterRepair", "afterRepairError", "beforeInfo",
    "afterInfo", "afterInfoError", "afterMigrateOperationFinish", "afterInfoOperationFinish",
    "createSchema", "beforeCreateSchema", "beforeConnect", "afterConnect",
  ]

  /// The name's stem without its migration suffix; nil when no suffix of `settings` ends it
  /// (not a migration file: Flyway does not look at it).
  static func stem(_ name: String, settings: FlywaySettings) -> Substring? {
    let lowered = name.lowercased()
    for suffix in settings.suffixes where lowered.hasSuffix(suffix.lowercased()) {
      return name.dropLast(suffix.count)
    }
    return nil
  }

  /// True when the name starts like a Flyway migration (`V1__`, `U1__`, `R__`), which is what
  /// detection looks for.
  static func looksLikeFlyway(_ name: String, settings: FlywaySettings = FlywaySettings()) -> Bool {
    // The stem starts the name, so a name that starts with none of the prefixes is decided
    // without finding its stem (or making an array of the prefixes).
    guard
      name.hasPrefix(settings.versionedPrefix) || name.hasPrefix(settings.undoPrefix)
        || name.hasPrefix(settings.repeatablePrefix + settings.separator)
    else { return false }
    let prefixes = [settings.versionedPrefix, settings.undoPrefix]
    guard let stem = stem(name, settings: settings) else { return false }
    if stem.hasPrefix(settings.repeatablePrefix + settings.separator) { return true }
    return prefixes.contains { prefix in
      guard stem.hasPrefix(prefix) else { return false }
      let rest = stem.dropFirst(prefix.count)
      guard let first = rest.first, first.isASCII, first.isNumber else { return false }
      return rest.contains(settings.separator) || isVersion(rest)
    }
  }

  /// True when the file a message names is a Flyway migration (`…/V1__a.sql`), so its help
  /// speaks of Flyway's files.
  static func isFlywayPath(_ path: String) -> Bool {
    looksLikeFlyway(path.split(separator: "/").last.map(String.init) ?? path)
  }

  /// Parses a migration file's name; nil when no suffix of the settings ends it.
  ///
  /// - Throws: `MigrationError.formatProblem` naming the file for a callback script, or a name
  ///   Flyway would not read as a migration (it would skip the file without a word, so the run
  ///   would miss a step).
  static func parse(
    _ name: String,
    shown: String,
    settings: FlywaySettings
  ) throws -> FlywayFileName? {
    guard let stem = stem(name, settings: settings) else { return nil }
    func problem(_ reason: String) -> MigrationError {
      .formatProblem(file: shown, line: 1, format: .flyway, reason: reason)
    }
    let event = stem.range(of: settings.separator).map { stem[..<$0.lowerBound] } ?? stem
    if callbackEvents.contains(String(event)) {
      throw problem(
        "'\(event)' is a Flyway callback: Flyway runs it around migrations, strata does not "
          + "run callbacks, so its SQL would be missing; nothing was run (move it out of the "
          + "folder, or put its SQL in a migration)"
      )
    }
    let kinds: [(String, Kind)] = [
      (settings.versionedPrefix, .versioned), (settings.undoPrefix, .undo),
      (settings.repeatablePrefix, .repeatable),
    ].sorted { $0.0.count > $1.0.count }
    guard let (prefix, kind) = kinds.first(where: { stem.hasPrefix($0.0) }) else {
      throw problem(
        "the name is not a Flyway migration's (\(settings.versionedPrefix)<version>"
          + "\(settings.separator)<description>, \(settings.undoPrefix)<version>"
          + "\(settings.separator)<description> or \(settings.repeatablePrefix)"
          + "\(settings.separator)<description>); Flyway would skip it without a word, so "
          + "nothing was run"
      )
    }
    let rest = stem.dropFirst(prefix.count)
    let split = rest.range(of: settings.separator)
    let version = String(split.map { rest[..<$0.lowerBound] } ?? rest)
    let description = String(split.map { rest[$0.upperBound...] } ?? "")
    let example = description.isEmpty ? "description" : description
    if kind == .repeatable {
      guard version.isEmpty else {
        throw problem(
          "a repeatable migration has no version; Flyway would skip this name, so nothing "
            + "was run (name it \(prefix)\(settings.separator)\(example)"
            + "\(name.suffix(name.count - stem.count)))"
        )
      }
    } else if !isVersion(version[...]) {
      throw problem(
        (version.isEmpty
          ? "the name has no version" : "'\(version)' is not a Flyway version")
          + (split == nil ? " (the separator is '\(settings.separator)')" : "")
          + "; Flyway would skip this name, so nothing was run (name it \(prefix)1.2"
          + "\(settings.separator)\(example)\(name.suffix(name.count - stem.count)))"
      )
    }
    return FlywayFileName(kind: kind, version: version, description: description)
  }

  /// Digits split by single `.` or `_`, as Flyway's MigrationVersion reads a version.
  static func isVersion(_ text: Substring) -> Bool {
    let parts = text.split(
      separator: ".",
      omittingEmptySubsequences: false
    ).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
    return !text.isEmpty
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }
}
