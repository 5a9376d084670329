extension SQLMigrateReader {
  /// The files of a sql-migrate folder keyed by sql-migrate's ids (their file names), for a
  /// folder strata's name rule cannot read: a name like `01-consolidated.sql`, two files of one
  /// number, a name without a leading number. sql-migrate takes every `.sql` file of the folder
  /// and records each by its file name, so every file is a migration of its own here.
  ///
  /// Such names are read only in a folder that is sql-migrate's: named so by the caller
  /// (`named`), or with a `-- +migrate` command in one of its files; nil otherwise, and the
  /// name rule of the other formats stands.
  ///
  /// - Throws: `MigrationError.versionTooLarge` for a leading number beyond 64 bits.
  static func groupsByFileName(
    _ names: [String],
    directory shown: String,
    named: Bool,
    read readFile: MigrationFileRead
  ) throws -> [MigrationVersion: MigrationFileGroup]? {
    guard named || names.contains(where: { isSQLMigrateFile($0, read: readFile) }) else {
      return nil
    }
    var groups: [MigrationVersion: MigrationFileGroup] = [:]
    for name in names {
      let file = shown + "/" + name
      guard let version = try? MigrationVersion(sqlMigrate: name) else {
        throw MigrationError.versionTooLarge(file: file)
      }
      let digits = name.prefix { $0.isASCII && $0.isNumber }
      var rest = name.dropFirst(digits.count).dropLast(4)
      if !digits.isEmpty, let first = rest.first, first == "_" || first == "-" {
        rest = rest.dropFirst()
      }
      let parsed = MigrationParser.FileName(
        version: Int64(digits) ?? 0,
        name: String(rest),
        part: .whole
      )
      var group = MigrationFileGroup(version: version)
      try group.add(MigrationFileGroup.File(name: name, shown: file, parsed: parsed, isBare: false))
      groups[version] = group
    }
    return groups
  }

  /// Whether the file carries a sql-migrate command (an unreadable file says nothing here;
  /// reading it later reports it).
  private static func isSQLMigrateFile(_ name: String, read readFile: MigrationFileRead) -> Bool {
    guard case .success(let bytes) = readFile(name) else { return false }
    return MigrationFormat.signal(isPair: false, isBare: false, bytes: bytes)
      == .marked(.sqlMigrate)
  }
}
