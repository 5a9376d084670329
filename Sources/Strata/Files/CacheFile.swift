import Foundation

/// The bytes of a file `status` keeps in the user's cache folder (`MigrationFolderCache`,
/// `DatabaseHistoryCache`): a header naming the layout, the content, and a checksum of both
/// (`checksum`: there to catch a file cut short or garbled, not a forgery). A copy is only as
/// true as its folder: it is read and written only where no other user can write
/// (`isPrivate`), else the files are read in full.
///
/// Numbers are little-endian; a string is its UTF-8 length (4 bytes) and its bytes.
enum CacheFile {
  struct Writer {
    private(set) var bytes: [UInt8]

    init(header: [UInt8]) { bytes = header }

    mutating func integer(_ value: UInt64) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
      let utf8 = text.utf8
      withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: utf8)
    }

    /// Every entry's name, presence, device, inode, size, mode and times.
    mutating func snapshot(_ snapshot: FolderSnapshot) {
      integer(UInt64(snapshot.entries.count))
      for entry in snapshot.entries {
        string(entry.name)
        integer(entry.exists ? 1 : 0)
        integer(entry.device)
        integer(entry.inode)
        integer(UInt64(bitPattern: entry.size))
        integer(UInt64(entry.mode))
        for time in [entry.modified, entry.changed] {
          integer(UInt64(bitPattern: time.seconds))
          integer(UInt64(bitPattern: time.nanoseconds))
        }
      }
    }

    /// The bytes with their checksum after them.
    func sealed() -> [UInt8] {
      var out = self
      out.integer(CacheFile.checksum(bytes[...]))
      return out.bytes
    }
  }

  struct Reader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    /// A reader of the content of `bytes`, or nil unless they start with `header` and end
    /// with the checksum of all before it.
    init?(_ bytes: [UInt8], header: [UInt8]) {
      guard bytes.count >= header.count + 8, bytes.starts(with: header) else { return nil }
      var trailer = Reader(slice: bytes[(bytes.count - 8)...])
      guard CacheFile.checksum(bytes[..<(bytes.count - 8)]) == trailer.integer() else { return nil }
      self.init(slice: bytes[header.count..<(bytes.count - 8)])
    }

    private init(slice: ArraySlice<UInt8>) {
      bytes = slice
      position = slice.startIndex
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
      // Valid UTF-8 when written; the checksum has vouched for every byte since.
      stringBytes().map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Whether the string that follows is `expected`, compared as bytes: no string is made.
    mutating func string(equals expected: String) -> Bool {
      guard let range = stringBytes() else { return false }
      var expected = expected
      return expected.withUTF8 { $0.elementsEqual(bytes[range]) }
    }

    /// Where the next string's bytes are, stepping past them.
    private mutating func stringBytes() -> Range<Int>? {
      guard remaining >= 4 else { return nil }
      var length = 0
      for offset in (0..<4).reversed() { length = length << 8 | Int(bytes[position + offset]) }
      guard remaining - 4 >= length else { return nil }
      let start = position + 4
      position = start + length
      return start..<position
    }

    /// Whether what follows is `snapshot`, entry for entry.
    mutating func matches(_ snapshot: FolderSnapshot) -> Bool {
      guard let count = integer(), count == snapshot.entries.count else { return false }
      for entry in snapshot.entries {
        guard string(equals: entry.name), integer() == (entry.exists ? 1 : 0),
          integer() == entry.device, integer() == entry.inode,
          integer() == UInt64(bitPattern: entry.size), integer() == UInt64(entry.mode)
        else { return false }
        for time in [entry.modified, entry.changed] {
          guard integer() == UInt64(bitPattern: time.seconds),
            integer() == UInt64(bitPattern: time.nanoseconds)
          else { return false }
        }
      }
      return true
    }
  }

  /// The kept copy's bytes, or nil when there is none or it cannot be trusted: its folder
  /// is not private (`isPrivate`), or the file is a link, not a regular file, not the user's,
  /// or writable by group or others.
  static func read(_ file: URL) -> [UInt8]? {
    guard isPrivate(folder: file.deletingLastPathComponent().path) else { return nil }
    let user = geteuid()
    return readFile(atPath: file.path) { info in
      info.st_uid == user && info.st_mode & 0o022 == 0
    }
  }

  /// Whether no other user can change what `folder` holds, checked as ssh checks a key's
  /// folders: the folder itself (links resolved) is the user's and not writable by group or
  /// others; each folder above it, up to `/`, is the user's or root's and not writable by
  /// group or others, unless it is sticky (as `/tmp` is: others may add names there, but not
  /// rename or remove the user's).
  static func isPrivate(folder: String) -> Bool {
    isTrusted(folder: folder, isFolderItself: true)
  }

  /// The checks of `isPrivate`, the first folder held to the folder's own rule or to the rule
  /// for the folders above it.
  private static func isTrusted(folder: String, isFolderItself itself: Bool) -> Bool {
    guard let resolved = realpath(folder, nil) else { return false }
    let real = String(cString: resolved)
    free(resolved)
    let user = geteuid()
    var path = real
    var isFolderItself = itself
    while true {
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return false }
      let writableByOthers = info.st_mode & 0o022 != 0
      if isFolderItself {
        guard info.st_uid == user, !writableByOthers else { return false }
      } else {
        guard info.st_uid == user || info.st_uid == 0 else { return false }
        guard !writableByOthers || info.st_mode & S_ISVTX != 0 else { return false }
      }
      if path == "/" { return true }
      isFolderItself = false
      path = (path as NSString).deletingLastPathComponent
    }
  }

  /// Makes each missing folder of `folder` the user's own (0700), as mkdir makes it; true
  /// when the folder is there at the end.
  /// None is made under a folder that another user could change (`isPrivate`'s rule for the
  /// folders above).
  private static func makeFolders(_ folder: String) -> Bool {
    var missing: [String] = []
    var path = folder
    var info = stat()
    while stat(path, &info) != 0, errno == ENOENT, path != "/" {
      missing.append(path)
      path = (path as NSString).deletingLastPathComponent
    }
    if !missing.isEmpty, !isTrusted(folder: path, isFolderItself: false) { return false }
    for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
      return false
    }
    return stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Writes `bytes` beside `file` and renames them over it, so a reader sees a whole file or
  /// the one before; its folders are made when missing, the user's own (0700), the file 0600
  /// (a copy holds migrations' SQL, or a database's history). Nothing is written in a folder
  /// that is not private (`isPrivate`). False when it cannot: a kept file is only ever a
  /// saving.
  static func write(_ bytes: [UInt8], to file: URL) -> Bool {
    let folder = file.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
    guard makeFolders(folder.path), isPrivate(folder: folder.path),
      FileManager.default.createFile(
        atPath: temporary.path,
        contents: Data(bytes),
        attributes: [.posixPermissions: 0o600]
      )
    else { return false }
    guard rename(temporary.path, file.path) == 0 else {
      unlink(temporary.path)
      return false
    }
    return true
  }

  /// FNV-1a's steps taken a 64-bit word at a time, each product rotated so that its high bits
  /// reach the low ones of the next (a copy of a large folder is half a megabyte, checked at
  /// every `status`: a byte at a time was a twentieth of its instructions).
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    let prime: UInt64 = 0x100_0000_01b3
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    bytes.withUnsafeBytes { raw in
      let words = raw.count / 8
      for index in 0..<words {
        let word = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
        )
        let product = (hash ^ word) &* prime
        hash = product << 29 | product >> 35
      }
      for byte in raw[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* prime }
    }
    return hash
  }
}
