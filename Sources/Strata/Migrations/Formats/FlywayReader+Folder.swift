extension FlywayReader: MigrationFolderReader {
  /// A Flyway folder's migrations, when the folder is Flyway's (`chosen`, or detected from
  /// names such as `V1__init.sql`); nil for any other folder. The folder's `flyway.conf` or
  /// `flyway.toml` settings are read only for a Flyway folder (a refused setting is an error
  /// then, and only then).
  ///
  /// - Throws: `MigrationError`: a folder that mixes Flyway's names with another format's,
  ///   a refused setting, or what `read(names:directory:settings:read:)` refuses.
  static func read(
    _ folder: MigrationFolderFiles,
    format chosen: MigrationFormat?
  ) throws -> MigrationFolderContents? {
    let (names, shown, settings) = (folder.names, folder.shown, folder.flywaySettings)
    guard chosen == nil || chosen == .flyway else { return nil }
    // The names come sorted (`MigrationParser.sortedNames`).
    let visible = names.filter { !$0.hasPrefix(".") }
    let detected = (try? settings()) ?? FlywaySettings()
    let flyway = visible.filter { FlywayFileName.looksLikeFlyway($0, settings: detected) }
    guard chosen == .flyway || !flyway.isEmpty else { return nil }
    if chosen == nil {
      for name in visible where MigrationParser.isSQLName(name) && !flyway.contains(name) {
        let bare = MigrationParser.bareVersion(name) != nil
        guard let parsed = MigrationParser.parseFileName(name) ?? MigrationParser.bareVersion(name)
        else {
          continue
        }
        let other: MigrationFormat.Signal =
          bare ? .bare : parsed.part == .whole ? .plain : .pair
        throw MigrationError.mixedFormats(
          directory: shown,
          formats: [MigrationFormat.flyway.rawValue, other.name],
          files: [shown + "/" + flyway[0], shown + "/" + name]
        )
      }
    }
    let (migrations, repeatables) = try read(
      names: visible,
      directory: shown,
      settings: try settings(),
      read: folder.read
    )
    return MigrationFolderContents(
      migrations: migrations,
      repeatables: repeatables,
      format: .flyway
    )
  }
}
