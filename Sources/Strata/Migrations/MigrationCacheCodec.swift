/// The bytes of a `MigrationFolderCache` copy: a header naming the layout, the key, the
/// folder's snapshot, the migrations, and a checksum of all that (FNV-1a, 64 bits: it is there
/// to catch a copy cut short or garbled, not a forgery; the copy lives in the user's own
/// cache folder).
///
/// Numbers are little-endian; a string is its UTF-8 length (4 bytes) and its bytes.
enum MigrationCacheCodec {
  /// Changed whenever the layout or anything read into it changes.
  static let header = Array("strata migration folder cache 1\n".utf8)

  static func encode(_ set: MigrationSet, key: String, snapshot: FolderSnapshot) -> [UInt8] {
    var out = Writer()
    out.bytes.append(contentsOf: header)
    out.string(key)
    out.integer(UInt64(snapshot.entries.count))
    for entry in snapshot.entries {
      out.string(entry.name)
      out.integer(entry.exists ? 1 : 0)
      out.integer(entry.device)
      out.integer(entry.inode)
      out.integer(UInt64(bitPattern: entry.size))
      out.integer(UInt64(entry.mode))
      for time in [entry.modified, entry.changed] {
        out.integer(UInt64(bitPattern: time.seconds))
        out.integer(UInt64(bitPattern: time.nanoseconds))
      }
    }
    out.string(set.directory)
    out.string(set.format.rawValue)
    out.integer(UInt64(set.migrations.count))
    for migration in set.migrations {
      out.integer(UInt64(bitPattern: migration.version.integerValue ?? 0))
      out.string(migration.name)
      out.string(migration.checksum)
      out.script(migration.up)
      out.integer(migration.down == nil ? 0 : 1)
      if let down = migration.down { out.script(down) }
    }
    out.integer(fnv1a(out.bytes))
    return out.bytes
  }

  /// The migrations kept in `bytes`, or nil unless the copy is whole and was made with `key`
  /// of a folder whose snapshot was `snapshot`.
  static func decode(_ bytes: [UInt8], key: String, snapshot: FolderSnapshot) -> MigrationSet? {
    guard bytes.count >= header.count + 8, bytes.starts(with: header) else { return nil }
    var trailer = Reader(bytes[(bytes.count - 8)...])
    guard fnv1a(bytes[..<(bytes.count - 8)]) == trailer.integer() else { return nil }
    var input = Reader(bytes[header.count..<(bytes.count - 8)])
    guard input.string() == key, let count = input.integer(), count == snapshot.entries.count
    else { return nil }
    for entry in snapshot.entries {
      guard input.string() == entry.name, input.integer() == (entry.exists ? 1 : 0),
        input.integer() == entry.device, input.integer() == entry.inode,
        input.integer() == UInt64(bitPattern: entry.size), input.integer() == UInt64(entry.mode)
      else { return nil }
      for time in [entry.modified, entry.changed] {
        guard input.integer() == UInt64(bitPattern: time.seconds),
          input.integer() == UInt64(bitPattern: time.nanoseconds)
        else { return nil }
      }
    }
    guard let directory = input.string(), let formatName = input.string(),
      let format = MigrationFormat(rawValue: formatName), let total = input.integer(),
      total <= UInt64(input.remaining)
    else { return nil }
    var migrations: [Migration] = []
    migrations.reserveCapacity(Int(total))
    for _ in 0..<total {
      guard let number = input.integer(), let name = input.string(),
        let checksum = input.string(), let up = input.script(), let hasDown = input.integer(),
        hasDown <= 1
      else { return nil }
      var down: MigrationScript?
      if hasDown == 1 {
        guard let script = input.script() else { return nil }
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

  private struct Writer {
    var bytes: [UInt8] = []

    mutating func integer(_ value: UInt64) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
      let utf8 = text.utf8
      withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: utf8)
    }

    mutating func script(_ script: MigrationScript) {
      string(script.sql)
      string(script.file)
      integer(UInt64(bitPattern: Int64(script.firstLine)))
      integer(script.isTransactional ? 1 : 0)
    }
  }

  private struct Reader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func integer() -> UInt64? {
      guard remaining >= 8 else { return nil }
      var value: UInt64 = 0
      for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[position + offset]) }
      position += 8
      return value
    }

    mutating func string() -> String? {
      guard remaining >= 4 else { return nil }
      var length = 0
      for offset in (0..<4).reversed() { length = length << 8 | Int(bytes[position + offset]) }
      guard remaining - 4 >= length else { return nil }
      let start = position + 4
      position = start + length
      // Valid UTF-8 when written; the checksum has vouched for every byte since.
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func script() -> MigrationScript? {
      guard let sql = string(), let file = string(), let line = integer(),
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

  /// FNV-1a, 64 bits.
  private static func fnv1a(_ bytes: some Collection<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }
}
