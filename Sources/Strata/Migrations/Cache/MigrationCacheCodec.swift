/// The bytes of a `MigrationFolderCache` copy (a `CacheFile`): the key, the folder's snapshot
/// and the migrations.
enum MigrationCacheCodec {
  /// Changed whenever the layout or anything read into it changes.
  static let header = Array("strata migration folder cache 2\n".utf8)

  static func encode(_ set: MigrationSet, key: String, snapshot: FolderSnapshot) -> [UInt8] {
    var out = CacheFile.Writer(header: header)
    out.string(key)
    out.snapshot(snapshot)
    out.string(set.directory)
    out.string(set.format.rawValue)
    out.integer(UInt64(set.migrations.count))
    for migration in set.migrations {
      out.integer(UInt64(bitPattern: migration.version.integerValue ?? 0))
      out.string(migration.name)
      out.string(migration.checksum)
      out.script(migration.up, withFile: true)
      // A down part in the up part's own file (dbmate's markers) keeps no second copy of its
      // name: 2 says "the up part's file", 1 that the file's name follows, 0 that there is none.
      if let down = migration.down {
        let sameFile = down.file == migration.up.file
        out.integer(sameFile ? 2 : 1)
        out.script(down, withFile: !sameFile)
      } else {
        out.integer(0)
      }
    }
    return out.sealed()
  }

  /// The migrations kept in `bytes`, or nil unless the copy is whole and was made with `key`
  /// of a folder whose snapshot was `snapshot`.
  static func decode(_ bytes: [UInt8], key: String, snapshot: FolderSnapshot) -> MigrationSet? {
    guard var input = CacheFile.Reader(bytes, header: header), input.string(equals: key),
      input.matches(snapshot)
    else { return nil }
    guard let directory = input.string(), let formatName = input.string(),
      let format = MigrationFormat(rawValue: formatName), let total = input.integer(),
      total <= UInt64(input.remaining)
    else { return nil }
    var migrations: [Migration] = []
    migrations.reserveCapacity(Int(total))
    for _ in 0..<total {
      guard let number = input.integer(), let name = input.string(),
        let checksum = input.string(), let up = input.script(), let downKind = input.integer(),
        downKind <= 2
      else { return nil }
      var down: MigrationScript?
      if downKind > 0 {
        guard let script = input.script(file: downKind == 2 ? up.file : nil) else { return nil }
        down = script
      }
      migrations.append(
        Migration(
          version: MigrationVersion(integer: Int64(bitPattern: number)),
          name: name,
          up: up,
          down: down,
          checksum: checksum
        )
      )
    }
    guard input.remaining == 0 else { return nil }
    return MigrationSet(sorted: migrations, directory: directory, format: format)
  }
}

extension CacheFile.Writer {
  /// `withFile` false: the reader takes the script's file from elsewhere.
  fileprivate mutating func script(_ script: MigrationScript, withFile: Bool) {
    string(script.sql)
    if withFile { string(script.file) }
    integer(UInt64(bitPattern: Int64(script.firstLine)))
    integer(script.isTransactional ? 1 : 0)
  }
}

extension CacheFile.Reader {
  /// `known` nil: the script's file follows in the copy.
  fileprivate mutating func script(file known: String? = nil) -> MigrationScript? {
    guard let sql = string(), let file = known ?? string(), let line = integer(),
      let transactional = integer(), transactional <= 1
    else { return nil }
    return MigrationScript(
      sql: sql,
      file: file,
      firstLine: Int(truncatingIfNeeded: Int64(bitPattern: line)),
      isTransactional: transactional == 1
    )
  }
}
