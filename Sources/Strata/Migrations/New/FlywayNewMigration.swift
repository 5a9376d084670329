import Foundation

extension NewMigration {
  /// The files `strata new` writes in a Flyway folder: `V<next>__<name>.sql`, and
  /// `U<next>__<name>.sql` only when the folder already has undo files (Flyway runs undo files
  /// in its paid editions only, so a folder without them gets none). The next version is the
  /// newest one's first part plus one (`V1.2` is followed by `V2`), zero-padded like it, or a
  /// UTC timestamp when the folder numbers by timestamps; the prefixes and separator are the
  /// folder's `flyway.conf` ones. Each file is left without SQL, so every command refuses it
  /// until it is written.
  ///
  /// - Throws: `MigrationError` for a refused setting, or no version left.
  static func flywayFiles(
    in directory: URL,
    names: [String],
    name: String,
    now: Date
  ) throws -> [(String, String)] {
    let settings = try FlywaySettings.read(folder: directory, shown: directory.path).0
    var newest: (version: MigrationVersion, major: Substring, file: String)?
    var hasUndo = false
    for file in names.sorted() {
      guard let parsed = try? FlywayFileName.parse(file, shown: file, settings: settings),
        parsed.kind != .repeatable, let version = try? MigrationVersion(flyway: parsed.version)
      else { continue }
      hasUndo = hasUndo || parsed.kind == .undo
      if newest.map({ $0.version <= version }) ?? true {
        let major = parsed.version.prefix { $0 != "." && $0 != "_" }
        newest = (version, major, file)
      }
    }
    let major = newest?.major ?? "0"
    guard let number = Int64(major), number < Int64.max else {
      throw MigrationError.noVersionLeft(
        file: directory.appendingPathComponent(newest?.file ?? "").path
      )
    }
    var next = String(number + 1)
    if major.count >= 14 {
      let formatter = DateFormatter()
      formatter.dateFormat = "yyyyMMddHHmmss"
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.locale = Locale(identifier: "en_US_POSIX")
      next = String(max(Int64(formatter.string(from: now)) ?? number + 1, number + 1))
    } else if major.count > next.count {
      next = String(repeating: "0", count: major.count - next.count) + next
    }
    let suffix = settings.suffixes[0]
    let rest = next + settings.separator + name + suffix
    let up = (settings.versionedPrefix + rest, "\n")
    return hasUndo ? [up, (settings.undoPrefix + rest, "\n")] : [up]
  }
}
