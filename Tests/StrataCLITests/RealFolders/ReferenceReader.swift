import Foundation

/// One migration as the folder's own tool reads it: written here from each tool's documentation
/// and source, independently of strata's readers, so that comparing the two proves something.
struct ReferenceMigration {
  let file: String
  let up: String
  /// nil: the tool has no way to revert it (an up-only file).
  let down: String?
}

/// The migration formats of the real folders, each read the way its own tool reads it.
enum ReferenceFormat: String, CaseIterable {
  case goose, sqlMigrate = "sql-migrate", dbmate, golangMigrate = "golang-migrate", sqlx, bundle
  case diesel, flyway
}

/// Reads a folder the way its tool does: which files, in which order, which lines run up and
/// which run down.
enum ReferenceReader {
  static func migrations(in folder: URL, format: ReferenceFormat) throws -> [ReferenceMigration] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    switch format {
    case .goose: return try sectioned(folder, names, up: ["+goose up"], down: ["+goose down"])
    case .sqlMigrate:
      return try sectioned(folder, names, up: ["+migrate up"], down: ["+migrate down"])
    case .dbmate: return try sectioned(folder, names, up: ["migrate:up"], down: ["migrate:down"])
    case .golangMigrate, .sqlx: return try pairs(folder, names, upOnlyAllowed: format == .sqlx)
    case .bundle: return try bundle(folder, names)
    case .diesel: return try diesel(folder, names)
    case .flyway: return try flyway(folder, names)
    }
  }

  /// The leading digits of a file name as a number, the way goose, golang-migrate, sqlx, dbmate,
  /// sql-migrate and the iOS managers take a version; ties keep the names' order (sql-migrate
  /// compares the whole names next).
  private static func numericOrder(_ names: [String]) -> [String] {
    func version(_ name: String) -> UInt64 { UInt64(name.prefix { $0.isNumber }) ?? 0 }
    return names.sorted { (version($0), $0) < (version($1), $1) }
  }

  private static func text(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// goose, sql-migrate and dbmate: one file, its lines split by annotation comments. An
  /// annotation is a `--` comment whose text (spaces trimmed, lowercased) starts with the
  /// marker; dbmate's sections may repeat (ups in order, downs in reverse).
  private static func sectioned(
    _ folder: URL,
    _ names: [String],
    up: [String],
    down: [String]
  ) throws -> [ReferenceMigration] {
    let files = numericOrder(names.filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true })
    return try files.map { name in
      var ups: [String] = []
      var downs: [String] = []
      var current: Int? = nil  // 0 up, 1 down
      for line in try text(folder, name).split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("--") {
          let note = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces).lowercased()
          if up.contains(where: { note.hasPrefix($0) }) {
            ups.append("")
            current = 0
            continue
          }
          if down.contains(where: { note.hasPrefix($0) }) {
            downs.append("")
            current = 1
            continue
          }
          if note.hasPrefix("+goose") || note.hasPrefix("+migrate") { continue }
        }
        if current == 0 { ups[ups.count - 1] += line + "\n" }
        if current == 1 { downs[downs.count - 1] += line + "\n" }
      }
      return ReferenceMigration(
        file: name,
        up: ups.joined(),
        down: downs.isEmpty ? "" : downs.reversed().joined()
      )
    }
  }

  /// golang-migrate and sqlx: `<v>_<name>.up.sql` with its `.down.sql`; sqlx also takes an
  /// up-only `<v>_<name>.sql`.
  private static func pairs(
    _ folder: URL,
    _ names: [String],
    upOnlyAllowed: Bool
  ) throws -> [ReferenceMigration] {
    let ups = names.filter {
      $0.first?.isNumber == true
        && ($0.hasSuffix(".up.sql")
          || (upOnlyAllowed && $0.hasSuffix(".sql") && !$0.hasSuffix(".down.sql")))
    }
    return try numericOrder(ups).map { name in
      let base = name.hasSuffix(".up.sql") ? String(name.dropLast(7)) : String(name.dropLast(4))
      let downName = base + ".down.sql"
      let down = names.contains(downName) ? try text(folder, downName) : nil
      return ReferenceMigration(file: name, up: try text(folder, name), down: down)
    }
  }

  /// SQLiteMigrationManager: `^(\d+)_?([\w\s-]*)\.sql$`, the whole file, no down; other
  /// `.sql` files are skipped.
  private static func bundle(_ folder: URL, _ names: [String]) throws -> [ReferenceMigration] {
    let pattern = try NSRegularExpression(pattern: #"^(\d+)_?([\w\s-]*)\.sql$"#)
    let files = names.filter {
      pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
    }
    return try numericOrder(files).map {
      ReferenceMigration(file: $0, up: try text(folder, $0), down: nil)
    }
  }

  /// diesel: one folder per migration with `up.sql` and `down.sql`, ordered by folder name.
  private static func diesel(_ folder: URL, _ names: [String]) throws -> [ReferenceMigration] {
    try names.filter { $0.first?.isNumber == true }.sorted().map {
      ReferenceMigration(
        file: $0,
        up: try text(folder, $0 + "/up.sql"),
        down: try? text(folder, $0 + "/down.sql")
      )
    }
  }

  /// Flyway: `V<version>__<description>.sql`, the version's parts (split at `.` and `_`)
  /// compared as numbers; `U<version>__…` undoes it.
  private static func flyway(_ folder: URL, _ names: [String]) throws -> [ReferenceMigration] {
    func parts(_ name: String) -> [UInt64] {
      let version = name.dropFirst().components(separatedBy: "__")[0]
      return version.split(whereSeparator: { $0 == "." || $0 == "_" }).map { UInt64($0) ?? 0 }
    }
    let versioned = names.filter { $0.hasPrefix("V") && $0.contains("__") && $0.hasSuffix(".sql") }
    return try versioned.sorted { parts($0).lexicographicallyPrecedes(parts($1)) }.map { name in
      let undo = names.first { $0.hasPrefix("U") && parts($0) == parts(name) }
      return ReferenceMigration(
        file: name,
        up: try text(folder, name),
        down: try undo.map { try text(folder, $0) }
      )
    }
  }
}
