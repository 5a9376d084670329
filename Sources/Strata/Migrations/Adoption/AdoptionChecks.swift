import Foundation

/// Compares the files an adoption records with the checksums the other tool recorded when it
/// applied them (`RecordedChecksums`; Flyway and sqlx keep one, the other tools none).
struct AdoptionChecks {
  let tool: ForeignTool
  let recorded: RecordedChecksums
  let migrations: MigrationSet
  /// Where the files are; nil: at the path each script names.
  let folder: URL?

  /// The migrations of `adopted` whose file's checksum is not the one the tool recorded for
  /// its version, in version order.
  func editedFiles(_ adopted: [Migration]) throws -> [EditedFile] {
    guard !recorded.versions.isEmpty else { return [] }
    let ordering = migrations.versionOrdering
    let byVersion = Dictionary(
      recorded.versions.map { ($0.key.read(as: ordering), $0.value) },
      uniquingKeysWith: { first, _ in first }
    )
    let baseline = recorded.baseline?.read(as: ordering)
    var edited: [EditedFile] = []
    for migration in adopted {
      guard let expected = byVersion[migration.version] else { continue }
      // Flyway compares only the versions above its baseline.
      if let baseline, migration.version <= baseline { continue }
      let current = try checksum(of: migration.up.file)
      if current != expected {
        edited.append(
          EditedFile(
            version: migration.version,
            file: migration.up.file,
            recorded: expected?.text ?? "null",
            current: current?.text ?? ""
          )
        )
      }
    }
    return edited
  }

  /// Refuses, as Flyway's validate does, a repeatable migration whose newest run failed, and
  /// one applied whose file is not here (unless Flyway marked it deleted). Only for a folder in
  /// Flyway's format: another format has no repeatable migrations to match them with.
  func checkRepeatables() throws {
    guard migrations.format == .flyway else { return }
    if let failed = recorded.failedRepeatables.first {
      throw ForeignHistoryError.failedHalfWay(
        tool: tool,
        migration: "the repeatable migration '\(failed)'"
      )
    }
    let here = Set(
      migrations.repeatables.map { $0.name.replacingOccurrences(of: "_", with: " ") }
    )
    let missing = recorded.appliedRepeatables.filter { !here.contains($0) }
    if !missing.isEmpty {
      throw ForeignHistoryError.noRepeatableFile(
        tool: tool,
        descriptions: missing,
        directory: migrations.directory
      )
    }
  }

  /// Flyway's repeatable migrations whose file is the one Flyway last applied: recorded as
  /// applied, they do not run again. Flyway records a repeatable script by its description, the
  /// file name's with `_` as spaces.
  func unchangedRepeatables() throws -> [RepeatableMigration] {
    guard !recorded.repeatables.isEmpty else { return [] }
    return try migrations.repeatables.filter { repeatable in
      let description = repeatable.name.replacingOccurrences(of: "_", with: " ")
      guard let expected = recorded.repeatables[description] else { return false }
      return try checksum(of: repeatable.script.file) == expected
    }
  }

  /// The tool's checksum of `file` (as a script names it) read again from the disk.
  private func checksum(of file: String) throws -> ForeignChecksum? {
    let prefix = migrations.directory + "/"
    let path =
      folder.map {
        $0.appendingPathComponent(
          file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
        )
        .path
      } ?? file
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MigrationError.unreadable(
        file: file,
        reason: "it could not be read again to compare it with the checksum "
          + "\(tool.displayName) recorded; nothing was adopted"
      )
    }
    return ForeignChecksum(tool, bytes: [UInt8](data))
  }
}
