/// A repeatable migration (Flyway's `R__<description>.sql`): no version; it runs after the
/// versioned migrations, and again whenever its checksum changes.
package struct RepeatableMigration: Hashable, Sendable, Codable {
  /// The description from its file name (`refresh_views` for `R__refresh_views.sql`), which
  /// identifies it in the history; repeatable migrations run in the order of their names.
  package let name: String
  /// Its SQL.
  package let script: MigrationScript
  /// SHA-256 hex of its SQL, as for a versioned migration's up part.
  package let checksum: String
}

/// Reads a Flyway folder as Flyway reads it: `V<version>__<description>.sql` versioned
/// migrations ordered by Flyway's version order, `U<version>__…` undo files as their down
/// parts, `R__<description>.sql` repeatable migrations ordered by description, each file whole
/// as one part, with its `.sql.conf` script settings.
enum FlywayReader {
  /// The versioned and repeatable migrations of the files `names`.
  ///
  /// - Throws: `MigrationError` for a name Flyway would skip or a callback, two files of one
  ///   version (Flyway's `1` and `1.0` are one version) or description, an undo file without
  ///   its versioned one, a file that is not UTF-8 text, a placeholder, a marker of another tool,
  ///   a refused script setting, or a migration without SQL.
  static func read(
    names: [String],
    directory shown: String,
    settings: FlywaySettings,
    read readFile: MigrationFileRead
  ) throws -> (migrations: [Migration], repeatables: [RepeatableMigration]) {
    let all = Set(names)
    let (versioned, undo, repeatable) = try files(names, directory: shown, settings: settings)
    func script(_ name: String, version: MigrationVersion) throws -> (MigrationScript?, String) {
      try part(
        name,
        version: version,
        shown: shown,
        hasConf: all.contains(name + ".conf"),
        settings: settings,
        read: readFile
      )
    }
    var migrations: [Migration] = []
    for version in versioned.keys.sorted() {
      guard let (name, parsed) = versioned[version] else { continue }
      let (up, checksum) = try script(name, version: version)
      guard let up else { throw MigrationError.emptyMigration(file: shown + "/" + name) }
      let down = try undo[version].flatMap { try script($0.name, version: version).0 }
      migrations.append(
        Migration(
          version: version,
          name: parsed.description,
          up: up,
          down: down,
          checksum: checksum
        )
      )
    }
    var repeatables: [RepeatableMigration] = []
    // Flyway orders them by description (Java's String.compareTo: UTF-16 code units).
    for description in repeatable.keys.sorted(by: {
      Array($0.utf16).lexicographicallyPrecedes($1.utf16)
    }) {
      guard let name = repeatable[description] else { continue }
      let (sql, checksum) = try script(name, version: .zero)
      guard let sql else { throw MigrationError.emptyMigration(file: shown + "/" + name) }
      repeatables.append(RepeatableMigration(name: description, script: sql, checksum: checksum))
    }
    return (migrations, repeatables)
  }

  /// The files Flyway runs, by what their names say: versioned and undo files by version,
  /// repeatable ones by description.
  ///
  /// - Throws: `MigrationError` for a name Flyway would skip or a callback, two files of one
  ///   version or description, or an undo file without its versioned one.
  private static func files(
    _ names: [String],
    directory shown: String,
    settings: FlywaySettings
  ) throws -> (
    versioned: [MigrationVersion: (name: String, parsed: FlywayFileName)],
    undo: [MigrationVersion: (name: String, parsed: FlywayFileName)],
    repeatable: [String: String]
  ) {
    var versioned: [MigrationVersion: (name: String, parsed: FlywayFileName)] = [:]
    var undo: [MigrationVersion: (name: String, parsed: FlywayFileName)] = [:]
    var repeatable: [String: String] = [:]
    for name in names.sorted() where !name.hasPrefix(".") {
      let file = shown + "/" + name
      guard let parsed = try FlywayFileName.parse(name, shown: file, settings: settings) else {
        continue
      }
      if parsed.kind == .repeatable {
        if let other = repeatable[parsed.description] {
          throw MigrationError.formatProblem(
            file: file,
            line: 1,
            format: .flyway,
            reason: "\(shown)/\(other) has the same description; Flyway refuses two repeatable "
              + "migrations of one description, so nothing was run"
          )
        }
        repeatable[parsed.description] = name
        continue
      }
      let version = try MigrationVersion(flyway: parsed.version)
      if let other = (parsed.kind == .undo ? undo : versioned)[version] {
        throw MigrationError.duplicateVersion(
          version: version,
          files: [shown + "/" + other.name, file]
        )
      }
      if parsed.kind == .undo {
        undo[version] = (name, parsed)
      } else {
        versioned[version] = (name, parsed)
      }
    }
    if let orphan = undo.keys.sorted().first(where: { versioned[$0] == nil }),
      let name = undo[orphan]?.name
    {
      throw MigrationError.downWithoutUp(file: shown + "/" + name)
    }
    return (versioned, undo, repeatable)
  }

  /// One file as one part: its script (nil without SQL) and the checksum of its SQL.
  private static func part(
    _ name: String,
    version: MigrationVersion,
    shown: String,
    hasConf: Bool,
    settings: FlywaySettings,
    read readFile: MigrationFileRead
  ) throws -> (MigrationScript?, String) {
    let file = MigrationFileGroup.File(
      name: name,
      shown: shown + "/" + name,
      parsed: MigrationParser.FileName(version: 0, name: name, part: .whole),
      isBare: false
    )
    let loaded = try LoadedMigrationFile(file: file, read: readFile)
    var options = FlywayScript.Options()
    if hasConf {
      let conf = MigrationFileGroup.File(
        name: name + ".conf",
        shown: file.shown + ".conf",
        parsed: file.parsed,
        isBare: false
      )
      let bytes = try LoadedMigrationFile(file: conf, read: readFile).bytes
      options = try FlywayScript.options(conf: bytes, file: conf.shown)
    }
    let text = MigrationParser.normalize(loaded.bytes)
    let sql = String(decoding: text, as: UTF8.self)
    if options.placeholderReplacement ?? settings.placeholderReplacement {
      try FlywayScript.refusePlaceholders(sql, file: file.shown, settings: settings)
    }
    try MigrationParser.refuseMarkers(
      bytes: text,
      file: file.shown,
      format: .flyway,
      isPairFile: false
    )
    let checksum = MigrationSet.checksum(ofUp: sql)
    guard containsSQL(text) else { return (nil, checksum) }
    let script = MigrationScript(
      sql: sql,
      file: file.shown,
      firstLine: 1,
      isTransactional: options.executeInTransaction ?? settings.executeInTransaction
    )
    return (script, checksum)
  }
}
